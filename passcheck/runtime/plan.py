"""What a run must observe, read from the model: its annotated values in every scope.

The runtime owns this scan so that it can run a model and observe what the oracles asked for
without importing them (:mod:`passcheck.oracles` reads the same plan to judge).

Scopes: ``""`` main graph; ``<parent>/<node label>.<attribute>`` (``[i]`` for GRAPHS) for a
subgraph; ``function <domain>.<name>`` for a model-local function. Observation keys are the plain
name in the main graph, ``<scope>::<name>`` elsewhere, where a value is produced once per
iteration or call and is recorded as :class:`Repeated`.
"""

from __future__ import annotations

import array
import collections
import dataclasses
import functools
import hashlib
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from passcheck.runtime.graph_index import per_model
from passcheck.runtime.lru import kept

if TYPE_CHECKING:
    import onnx

#: Role of a main-graph input annotation: a promise the caller's inputs must keep.
PRECONDITION = "precondition"
#: Role of every other annotation: a claim the model makes about its values.
ASSERTION = "assertion"


class Repeated(list):
    """Every value one subgraph or function value took in a run (one per iteration or call)."""


@dataclasses.dataclass(frozen=True)
class Annotated:
    """One annotated value of a model.

    Attributes:
        key: the observation key (``name``, or ``scope::name`` outside the main graph).
        name: the value name in its graph or function.
        type: its TypeProto.
        role: ``precondition`` (main-graph input) or ``assertion``.
        scope: ``""`` for the main graph, else e.g. ``loop.body`` or ``function pkg.f``.
    """

    key: str
    name: str
    type: onnx.TypeProto
    role: str
    scope: str = ""


def scope_key(scope: str, name: str) -> str:
    return f"{scope}::{name}" if scope else name


def node_label(node: onnx.NodeProto, index: int) -> str:
    return node.name or f"{node.op_type}#{index}"


def graph_scopes(model: onnx.ModelProto) -> Iterator[tuple[str, Any]]:
    """(scope, GraphProto or FunctionProto) for the main graph, every nested subgraph and function.

    Scopes: ``""`` main graph; ``<parent>/<node label>.<attribute>`` (``[i]`` for GRAPHS) for a
    subgraph; ``function <domain>.<name>`` for a model-local function.
    """
    import onnx

    graph, graphs = onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS

    def walk(scope: str, nodes) -> Iterator[tuple[str, Any]]:
        for i, n in enumerate(nodes):
            for att in n.attribute:
                kind = att.type
                if kind != graph and kind != graphs:
                    continue
                base = f"{scope + '/' if scope else ''}{node_label(n, i)}.{att.name}"
                subs = [(base, att.g)] if kind == graph else [(f"{base}[{j}]", g) for j, g in enumerate(att.graphs)]
                for s, g in subs:
                    yield s, g
                    yield from walk(s, g.node)

    yield "", model.graph
    yield from walk("", model.graph.node)
    for f in model.functions:
        fs = f"function {f.domain + '.' if f.domain else ''}{f.name}"
        yield fs, f
        yield from walk(fs, f.node)


def has_subscopes(model: onnx.ModelProto) -> bool:
    """Whether the model has a subgraph or a model-local function (values ORT cannot expose)."""
    return next(iter(s for s, _ in graph_scopes(model) if s), None) is not None


def _annotated_infos(scopes: list[tuple[str, Any]]) -> Iterator[tuple[str, str, onnx.ValueInfoProto]]:
    """(scope, role, ValueInfoProto) of every annotated value of ``scopes`` (see :func:`annotated_values`)."""
    for scope, g in scopes:
        if scope.startswith("function") and "/" not in scope:
            vis = [(vi, ASSERTION) for vi in getattr(g, "value_info", ())]
        else:
            vis = [(vi, PRECONDITION if not scope else ASSERTION) for vi in g.input]
            vis += [(vi, ASSERTION) for vi in list(g.output) + list(g.value_info)]
        yield from ((scope, role, vi) for vi, role in vis if vi.type.WhichOneof("value"))


def annotated_values(model: onnx.ModelProto) -> list[Annotated]:
    """Every annotated value of every scope; a name annotated twice appears twice.

    Main-graph inputs (those with an initializer too: overridable defaults) are preconditions;
    everything else is an assertion. A FunctionProto annotates through ``value_info`` (IR 10).
    """
    return [
        Annotated(scope_key(scope, vi.name), vi.name, vi.type, role, scope)
        for scope, role, vi in _annotated_infos(list(graph_scopes(model)))
    ]


class AnnotationPlan:
    """The annotations of one model, read once, in the form :func:`check` walks them.

    A plan holds no part of the model it was read from (its TypeProtos are copies), so one plan
    serves every model of the same :func:`fingerprint` (:func:`plan_of`) without keeping any of
    them, or their weights, alive.

    Attributes:
        nested: whether the model has a subgraph or a model-local function.
        steps: per annotated value, in :func:`annotated_values` order: (key, name, TypeProto,
            role, scope, kind, rule); ``kind`` is the TypeProto's ``value`` field, ``rule`` is
            ``None`` unless a tensor: (numpy dtype or None, rank or None without ``shape``, the
            shape when every dim has a ``dim_value`` else None, ((axis, dim_value)...),
            ((axis, dim_param)...)).
        count: distinct observation keys annotated.
    """

    __slots__ = ("nested", "steps", "count")

    def __init__(self, model: onnx.ModelProto) -> None:
        scopes = list(graph_scopes(model))
        self.nested = len(scopes) > 1
        self.steps = []
        for scope, role, vi in _annotated_infos(scopes):
            name = vi.name
            tp, kind, rule = _compiled(vi.type.SerializeToString())
            self.steps.append((scope_key(scope, name), name, tp, role, scope, kind, rule))
        self.count = len({s[0] for s in self.steps})


def fingerprint(model: onnx.ModelProto) -> bytes:
    """sha256 of what a model's :class:`AnnotationPlan` can depend on, weights left out: the main
    graph's nodes (subgraphs, with their annotations, are node attributes), inputs, outputs and
    value_info, and the model-local functions, each element serialized (with every length, so no
    two different lists hash alike). Initializers are not read: models differing only in weight values
    (or in which weights they hold) share it. Memoized by model identity inside a
    :func:`passcheck.runtime.graph_index.shared` block."""
    return _fingerprint(model)


@per_model
def _fingerprint(model: onnx.ModelProto) -> bytes:
    g = model.graph
    h = hashlib.sha256()
    for part in (g.node, g.input, g.output, g.value_info, model.functions):
        blobs = [x.SerializeToString() for x in part]
        h.update(array.array("Q", [len(blobs), *map(len, blobs)]).tobytes())  # where each element ends
        h.update(b"".join(blobs))
    return h.digest()


def plan_of(model: onnx.ModelProto, digest: bytes | None = None) -> AnnotationPlan:
    """The :class:`AnnotationPlan` of ``model``, kept by its :func:`fingerprint` for the last
    :data:`PLANS_KEPT` fingerprints: a pass output differing from another model only in weights, a
    model parsed again from the same bytes, a second binding or a repeated check reuse it; a model
    differing in one node or one annotation gets its own (issue 28).

    ``digest``: the sha256 of ``model``'s serialized bytes, when the caller knows it (the isolation
    worker's :meth:`~passcheck.execution.Worker.digest`): the fingerprint is then kept under it for
    the last :data:`PLANS_KEPT` digests, so the same bytes checked again are not fingerprinted
    again (the same bytes have the same fingerprint)."""
    if digest is None:
        key = fingerprint(model)
    else:
        key = kept(_FINGERPRINTS, digest, lambda: fingerprint(model), PLANS_KEPT)
    return kept(_PLANS, key, lambda: AnnotationPlan(model), PLANS_KEPT)


#: Plans kept by :func:`fingerprint` (a plan holds a few tuples per annotated value, no model).
PLANS_KEPT = 32
_PLANS: collections.OrderedDict[bytes, AnnotationPlan] = collections.OrderedDict()
#: :func:`fingerprint` by the sha256 of the model's bytes (see :func:`plan_of`).
_FINGERPRINTS: collections.OrderedDict[bytes, bytes] = collections.OrderedDict()


class Observed(dict):
    """Observation key → value, carrying the :class:`AnnotationPlan` of the model observed (or None)
    and that model (``of``), so a check of that same model object does not look the plan up again."""

    __slots__ = ("plan", "of")

    def __init__(self, *args: Any, plan: AnnotationPlan | None = None, of: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.plan, self.of = plan, of

    def __reduce__(self) -> tuple:
        """Pickled as a plain dict: the plan and the model are shortcuts of this process only."""
        return dict, (dict(self),)


@functools.lru_cache(maxsize=1 << 14)
def _compiled(type_bytes: bytes) -> tuple[onnx.TypeProto, str, tuple | None]:
    """(a TypeProto of its own, kind, rule) of a serialized TypeProto (see :class:`AnnotationPlan`):
    types repeat, so each is read once; the copy is shared and never changed."""
    import onnx

    tp = onnx.TypeProto.FromString(type_bytes)
    kind = tp.WhichOneof("value")
    return tp, kind, _tensor_rule(tp.tensor_type) if kind == "tensor_type" else None


def _tensor_rule(tt) -> tuple:
    want = want_dtype(tt.elem_type) if tt.elem_type else None
    if not tt.HasField("shape"):
        return want, None, None, (), ()
    fixed, params = [], []
    dims = tt.shape.dim
    for axis, d in enumerate(dims):
        which = d.WhichOneof("value")
        if which == "dim_value":
            fixed.append((axis, d.dim_value))
        elif which == "dim_param":
            params.append((axis, d.dim_param))
    exact = tuple(v for _, v in fixed) if len(fixed) == len(dims) else None
    return want, len(dims), exact, tuple(fixed), tuple(params)


@functools.cache
def want_dtype(elem_type: int) -> np.dtype | None:
    import onnx.helper

    try:
        return np.dtype(onnx.helper.tensor_dtype_to_np_dtype(elem_type))
    except (KeyError, TypeError, ValueError):
        return None


def annotations(model: onnx.ModelProto) -> list[tuple[str, onnx.TypeProto, str]]:
    """(value name, TypeProto, role) for every annotated value of the main graph."""
    return [(a.name, a.type, a.role) for a in annotated_values(model) if not a.scope]


@dataclasses.dataclass(frozen=True)
class ObservationPlan:
    """What the oracles asked to observe in every run of one model.

    Attributes:
        requests: asker (an oracle id) → observation keys whose values it reads: a main-graph
            value name (exposed as an extra graph output of the run) or ``scope::name`` for a
            value inside a subgraph or model-local function (read from a reference-evaluator run
            on the same feeds). Graph outputs and inputs are always observed.
        shapes: asker → main-graph tensors whose shape and element type only it reads: read from
            onnxruntime's profile of the run where it can vouch for them (nothing exposed, nothing
            kept alive), else exposed; observed as :class:`~passcheck.runtime.observe.TensorMeta`.
            ``scope::name`` keys here are observed as :attr:`requests` ones are.

    :attr:`main`, :attr:`main_shapes` and :attr:`scoped` are computed once per plan (a plan is
    kept per model and read for every binding).
    """

    requests: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)
    shapes: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=dict)

    @classmethod
    def of(
        cls, requests: Mapping[str, Iterable[str]], shapes: Mapping[str, Iterable[str]] | None = None
    ) -> ObservationPlan:
        return cls({k: tuple(v) for k, v in requests.items()}, {k: tuple(v) for k, v in (shapes or {}).items() if v})

    @functools.cached_property
    def main(self) -> list[str]:
        """Main-graph values whose data is read, each once, in request order (exposed)."""
        return list(dict.fromkeys(k for keys in self.requests.values() for k in keys if "::" not in k))

    @functools.cached_property
    def main_shapes(self) -> list[str]:
        """Main-graph tensors whose shape and element type only are read (not in :attr:`main`), each once."""
        data = set(self.main)
        return list(dict.fromkeys(k for keys in self.shapes.values() for k in keys if "::" not in k and k not in data))

    @functools.cached_property
    def scoped(self) -> frozenset[str]:
        """Subgraph and function values asked for (``scope::name``)."""
        return frozenset(
            k for asks in (self.requests, self.shapes) for keys in asks.values() for k in keys if "::" in k
        )
