"""A model's main graph read once into plain tuples, for the static scans that plan each run.

Reading a protobuf field from Python costs about a microsecond; planning one run scans the main
graph several times (each oracle's requests, the session copy, the profile's node order). Inside
a :func:`shared` block those scans read each model object once: :func:`per_model` functions are
memoized by model identity there, and computed afresh everywhere else, so a model changed
between two blocks is never judged from a stale read. Models a caller promises not to change for
longer (a subject's forms, read by its input cells and again by every pass's cells as the pass's
input) are named to :func:`pinned`: their readings are kept across blocks until that block ends.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, NamedTuple, TypeVar

if TYPE_CHECKING:
    import onnx

T = TypeVar("T")

#: AttributeProto types that may hold a subgraph (UNDEFINED: an old model infers the type from the field set).
_MAYBE_GRAPH = (0, 5, 10)  # UNDEFINED, GRAPH, GRAPHS
#: AttributeProto types that open a subgraph scope (onnx.proto: GRAPH, GRAPHS).
GRAPH_ATTRS = (5, 10)


def scoped(node: onnx.NodeProto) -> bool:
    """Whether ``node`` has an attribute typed GRAPH or GRAPHS (onnx.proto ``AttributeType``): a subgraph scope
    whose body may read outer-scope names (IR.md "Graphs", "Names within a graph")."""
    return any(a.type in GRAPH_ATTRS for a in node.attribute)


class NodeRow(NamedTuple):
    """One main-graph node.

    Attributes:
        op_type, domain: as in the NodeProto.
        inputs, outputs: names, ``""`` kept for an omitted optional input or output.
        subgraph: an attribute holds a non-empty graph (typed GRAPH/GRAPHS, or untyped with the field set).
        scoped: an attribute is typed GRAPH or GRAPHS (a subgraph scope, even an empty one).
    """

    op_type: str
    domain: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    subgraph: bool
    scoped: bool


@dataclasses.dataclass(frozen=True, slots=True)
class GraphIndex:
    """The main graph of one model, as plain values (see :func:`index_of`).

    Attributes:
        nodes: one row per node, in graph order (topological for a valid model).
        inputs, outputs: graph input and output names, in order.
        initializers: initializer names.
        functions: the model has model-local functions.
    """

    nodes: tuple[NodeRow, ...]
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    initializers: frozenset[str]
    functions: bool

    @property
    def has_subscopes(self) -> bool:
        """A subgraph scope or a model-local function exists (as :func:`passcheck.runtime.plan.has_subscopes`)."""
        return self.functions or any(n.scoped for n in self.nodes)


_MEMO: contextvars.ContextVar[dict | None] = contextvars.ContextVar("passcheck_graph_index_memo", default=None)


@contextlib.contextmanager
def shared() -> Iterator[None]:
    """Within the block, each :func:`per_model` function reads a model object once.

    The caller promises not to modify the models it passes meanwhile. Blocks nest (the outermost
    one's memo is used); the memo, and its references to the models, end with the block.
    """
    if _MEMO.get() is not None:
        yield
        return
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


#: (memo, id → model) of the innermost :func:`pinned` block.
_PINNED: contextvars.ContextVar[tuple[dict, dict] | None] = contextvars.ContextVar("passcheck_pinned", default=None)


@contextlib.contextmanager
def pinned(models: Iterable[onnx.ModelProto]) -> Iterator[None]:
    """Within the block, each :func:`per_model` function reads each of ``models`` once, inside
    :func:`shared` blocks and outside them (other models: as before).

    The caller promises not to modify ``models`` until the block ends (the engine pins a subject's
    forms for its whole evaluation: its input cells and each pass's cells read the same form objects,
    in different :func:`shared` blocks). The innermost block's models are the pinned ones; its memo,
    and its references to them, end with it.
    """
    token = _PINNED.set(({}, {id(m): m for m in models}))
    try:
        yield
    finally:
        _PINNED.reset(token)


def per_model(fn: Callable[[onnx.ModelProto], T]) -> Callable[[onnx.ModelProto], T]:
    """``fn(model)`` memoized by ``model``'s identity inside a :func:`shared` block, or for a model of
    the current :func:`pinned` block."""

    @functools.wraps(fn)
    def wrapper(model: onnx.ModelProto) -> T:
        pins = _PINNED.get()
        memo = pins[0] if pins is not None and pins[1].get(id(model)) is model else _MEMO.get()
        if memo is None:
            return fn(model)
        key = (fn, id(model))
        hit = memo.get(key)
        if hit is None or hit[0] is not model:
            hit = memo[key] = (model, fn(model))  # the model is held: its id cannot be reused meanwhile
        return hit[1]

    return wrapper


@per_model
def index_of(model: onnx.ModelProto) -> GraphIndex:
    """The :class:`GraphIndex` of ``model``'s main graph (one read of each node)."""
    g = model.graph
    rows = []
    for n in g.node:
        subgraph = scoped = False
        for a in n.attribute:
            kind = a.type
            if kind in _MAYBE_GRAPH and (a.g.node or a.graphs):
                subgraph = True
            if kind in GRAPH_ATTRS:
                scoped = True
        rows.append(NodeRow(n.op_type, n.domain, tuple(n.input), tuple(n.output), subgraph, scoped))
    return GraphIndex(
        tuple(rows),
        tuple(vi.name for vi in g.input),
        tuple(vi.name for vi in g.output),
        frozenset(t.name for t in g.initializer),
        bool(model.functions),
    )
