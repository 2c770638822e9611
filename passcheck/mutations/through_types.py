"""A tensor routed through a sequence or an optional value and back (IR.md §Types: a value may be a tensor,
a sequence of tensors or an optional; ONNX operator spec, each op's definition):

- ``through-sequence``: x → ``SequenceAt(SequenceConstruct(x), 0)`` (SequenceConstruct-11 makes a one-element
  sequence holding x; SequenceAt-11 returns the tensor at that position);
- ``through-optional``: x → ``OptionalGetElement(Optional(x))`` (Optional-15 wraps x in a non-empty optional;
  OptionalGetElement-15/18 returns the tensor it holds);
- ``through-optional-identity``: the same with ``Identity`` on the optional between them (Identity-16 takes
  any type, optionals included);
- ``through-fold``: the inverse, each of those spellings (a static index into a SequenceConstruct of tensors,
  any position, negative ones counted from the end) replaced by the tensor itself.

Sites are those of :mod:`passcheck.mutations.neutral_ops` (graph inputs read by a main-graph node, node outputs
read by a node or a graph output, not computed from constants alone): ``VALUE`` (between the value and all its
readers; a graph output keeps its name) and, for a value read by more than one node or also a graph output,
``VALUE->READER`` (``READER`` the node label; the other readers keep the value). Only where the schemas at the
model's opset take the value's element type and the installed onnxruntime's CPU provider has kernels for it
(:mod:`passcheck.mutations._kinds`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    chosen,
    drop_unused,
    is_default_domain,
    node_label,
    static_tensors,
)
from passcheck.mutations._graph_edit import protected, set_nodes
from passcheck.mutations._kinds import runs
from passcheck.mutations._value_sites import Namer, insert, inserted
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.neutral import INT64

if TYPE_CHECKING:
    import onnx

#: Sequence ops from opset 11; Optional / OptionalGetElement from 15; Identity of an optional from 16.
SEQUENCE_OPSET, OPTIONAL_OPSET, ANY_IDENTITY_OPSET = 11, 15, 16

Build = Callable[[str, int, int, Namer], "list[onnx.NodeProto] | None"]


def _sequence(x: str, elem_type: int, version: int, names: Namer):
    if version < SEQUENCE_OPSET or not runs(("SequenceConstruct", "SequenceAt"), version, elem_type):
        return None
    seq, out = names.value("seq"), names.value("at")
    position, c = names.constant("position", INT64, [0], [])
    return [names.node("SequenceConstruct", [x], seq), c, names.node("SequenceAt", [seq, position], out)]


def _optional(identity: bool) -> Build:
    needs = ANY_IDENTITY_OPSET if identity else OPTIONAL_OPSET
    ops = ("Optional", "OptionalGetElement") + (("Identity",) if identity else ())

    def build(x: str, elem_type: int, version: int, names: Namer):
        if version < needs or not runs(ops, version, elem_type):
            return None
        opt, out = names.value("optional"), names.value("get")
        nodes = [names.node("Optional", [x], opt)]
        if identity:
            held, opt = opt, names.value("optional_identity")
            nodes.append(names.node("Identity", [held], opt))
        return [*nodes, names.node("OptionalGetElement", [opt], out)]

    return build


def wrap(build: Build, model: onnx.ModelProto, only: frozenset[str] | None) -> list[str]:
    """Each site (module docs) → ``build``'s nodes between the value and its readers; the labels changed
    (value and edge sites of :func:`passcheck.mutations._value_sites.insert`)."""

    def step(x: str, k, version: int, names: Namer):
        return build(x, k.elem_type, version, names)

    return insert(model, only, [("through", step)], edges=True)


def through_sequence(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site x → ``SequenceAt(SequenceConstruct(x), 0)`` (opset >= 11)."""
    return wrap(_sequence, model, only)


def through_optional(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site x → ``OptionalGetElement(Optional(x))`` (opset >= 15)."""
    return wrap(_optional(False), model, only)


def through_optional_identity(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site x → ``OptionalGetElement(Identity(Optional(x)))`` (opset >= 16)."""
    return wrap(_optional(True), model, only)


def _held(g: onnx.GraphProto, n: onnx.NodeProto, producer: dict, static: dict) -> tuple[str, list[int]] | None:
    """The tensor a SequenceAt / OptionalGetElement node ``n`` returns when it is spelled out in the graph
    (module docs), and the indices of the wrapping nodes it reads through; None otherwise."""
    from onnx import numpy_helper

    if n.op_type == "SequenceAt" and len(n.input) == 2 and n.input[1] in static:
        j = producer.get(n.input[0])
        if j is None or g.node[j].op_type != "SequenceConstruct":
            return None
        at = numpy_helper.to_array(static[n.input[1]])
        items = list(g.node[j].input)
        if at.size != 1 or not -len(items) <= int(at.reshape(-1)[0]) < len(items):
            return None
        return items[int(at.reshape(-1)[0])], [j]
    if n.op_type == "OptionalGetElement":
        chain, x = [], n.input[0]
        while (j := producer.get(x)) is not None and g.node[j].op_type == "Identity":
            chain.append(j)
            x = g.node[j].input[0]
        if j is None or g.node[j].op_type != "Optional" or not g.node[j].input or not g.node[j].input[0]:
            return None
        return g.node[j].input[0], [*chain, j]
    return None


def fold(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each SequenceAt(SequenceConstruct(…), static i) and OptionalGetElement(Optional(x)) (Identity between
    them allowed) of the main graph → the tensor it returns: readers read it directly; the wrapping nodes go
    when nothing else reads them. A node whose output is a graph output or read in a subgraph goes only when
    the tensor is a node output nothing else reads (that node then writes the name). Sites: the SequenceAt /
    OptionalGetElement nodes."""
    g = model.graph
    producer = {o: i for i, n in enumerate(g.node) if is_default_domain(n) for o in n.output if o}
    static = static_tensors(g)
    keep_name = protected(g)
    drop: set[int] = set()
    renames: dict[str, str] = {}
    freed: set[str] = set()
    labels = []
    for i, n in enumerate(g.node):
        if not is_default_domain(n) or not chosen(only, node_label(n, i)):
            continue
        if (found := _held(g, n, producer, static)) is None:
            continue
        x, wrappers = found
        out = n.output[0]
        if out in keep_name:
            j = producer.get(x)
            sole = sum(x in m.input for m in g.node) == 1 and x not in keep_name
            if j is None or not sole or x in renames.values():
                continue
            g.node[j].output[:] = [out if o == x else o for o in g.node[j].output]
            renames[x] = out  # the wrapper reads it under its new name
            freed.add(x)
        else:
            renames[out] = x
        drop.add(i)
        freed.update(n.input)
        labels.append(node_label(n, i))
    if not labels:
        return []
    for n in g.node:
        n.input[:] = [_resolved(renames, x) for x in n.input]
    set_nodes(g, [n for i, n in enumerate(g.node) if i not in drop])
    _drop_unread_wrappers(g)
    drop_unused(g, freed)
    return labels


def _resolved(renames: dict[str, str], x: str) -> str:
    seen = {x}
    while (x := renames.get(x, x)) not in seen:
        seen.add(x)
    return x


_WRAPPERS = frozenset({"SequenceConstruct", "Optional", "Identity"})


def _drop_unread_wrappers(g: onnx.GraphProto) -> None:
    """Remove, until none is left, SequenceConstruct / Optional / Identity nodes whose output nothing reads."""
    keep_name = protected(g)
    while True:
        read = {x for n in g.node for x in n.input} | keep_name
        dead = [
            n
            for n in g.node
            if n.op_type in _WRAPPERS and is_default_domain(n) and not any(o in read for o in n.output)
        ]
        if not dead:
            return
        set_nodes(g, [n for n in g.node if n not in dead])


REWRITES = (
    Rewrite(
        "through-sequence",
        "a tensor x → SequenceAt(SequenceConstruct(x), 0) (opset >= 11; site VALUE or VALUE->READER)",
        through_sequence,
        inverse="through-fold",
        detail="values",
        site_signature=inserted("SequenceConstruct"),
        lists=True,
    ),
    Rewrite(
        "through-optional",
        "a tensor x → OptionalGetElement(Optional(x)) (opset >= 15; site VALUE or VALUE->READER)",
        through_optional,
        inverse="through-fold",
        detail="values",
        site_signature=inserted("Optional"),
        lists=True,
    ),
    Rewrite(
        "through-optional-identity",
        "a tensor x → OptionalGetElement(Identity(Optional(x))) (opset >= 16; site VALUE or VALUE->READER)",
        through_optional_identity,
        inverse="through-fold",
        detail="values",
        site_signature=inserted("Optional"),
        lists=True,
    ),
    Rewrite(
        "through-fold",
        "SequenceAt(SequenceConstruct(…), static i) / OptionalGetElement(Optional(x)) → the tensor itself",
        fold,
        inverse="through-sequence",
    ),
)

_SITES = (
    "main-graph values that are not static (site VALUE) and, for a value with several readers, each edge "
    "(VALUE->READER); only element types the schemas and the installed onnxruntime's CPU kernels take "
    "(back: the SequenceAt / OptionalGetElement nodes)"
)
FREEDOMS = (
    Freedom(
        "tensor-through-sequence",
        "data types",
        "IR.md §Types (sequence types); Operators.md SequenceConstruct-11, SequenceAt-11",
        "A tensor may be put in a one-element sequence and taken back out at position 0: the same tensor.",
        ("through-sequence", "through-fold"),
        _SITES,
    ),
    Freedom(
        "tensor-through-optional",
        "data types",
        "IR.md §Types (optional types); Operators.md Optional-15, OptionalGetElement-15/18, Identity-16",
        "A tensor may be wrapped in a non-empty optional (passed through Identity or not) and unwrapped: "
        "the same tensor.",
        ("through-optional", "through-optional-identity", "through-fold"),
        _SITES,
    ),
)
