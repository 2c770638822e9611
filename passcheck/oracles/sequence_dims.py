"""Dims of a tensor read out of a sequence that no type annotation on the way can carry.

onnx.proto's ``TypeProto.Sequence`` holds one ``elem_type`` and no length: every element of a sequence value is
described by one tensor type, so a dim where two elements differ is unknown in it, and the number of elements is
nowhere. A tensor an op computes from a sequence's length or from the element it picks therefore has dims no
type-level inference can know, whatever the pass:

- ``ConcatFromSequence`` (Operators.md): the concatenation axis (``new_axis`` 0: the sum of the elements' sizes
  there; ``new_axis`` 1: the inserted axis, the number of elements), and every other axis where two elements state
  different sizes;
- ``SequenceAt``: every axis where two elements state different sizes (which one is read depends on ``position``).

The elements are traced through the main-graph ops that build a sequence (SequenceConstruct: its inputs;
SequenceInsert: the input sequence's elements and ``tensor``; SequenceEmpty: none; Identity); any other producer
(a graph input, SplitToSequence, SequenceErase, a Loop) leaves only the length-dependent axis, never an element
axis. Identity and Cast between the op and the value keep each axis (Operators.md: same shape as the input).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

#: A dim as stated: an int (``dim_value``), a str (``dim_param``) or None (unknown).
Dim = int | str | None
#: Ops whose output has its (first) input's shape (Operators.md Identity, Cast).
SAME_SHAPE = ("Identity", "Cast")


def dims(t) -> list[Dim] | None:
    """A TypeProto's tensor dims as stated (None: not a tensor, or rank unknown)."""
    if not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else (d.dim_param or None) for d in t.tensor_type.shape.dim]


def shapes(graph: onnx.GraphProto) -> dict[str, list[Dim] | None]:
    """Value name → its stated dims in ``graph`` (initializers, graph inputs, value_info, graph outputs)."""
    out: dict[str, list[Dim] | None] = {i.name: list(i.dims) for i in graph.initializer}
    for v in [*graph.input, *graph.value_info, *graph.output]:
        out.setdefault(v.name, dims(v.type))
    return out


def elements(graph: onnx.GraphProto) -> Callable[[str], list[str] | None]:
    """``f(name)``: the tensor values the sequence ``name`` of ``graph`` is built from, or None when its producer is
    none of the builders the module docs name."""
    producer = {o: n for n in graph.node for o in n.output if o}

    def trace(name: str, depth: int = 0) -> list[str] | None:
        n = producer.get(name)
        if n is None or depth > len(graph.node) or n.domain not in ("", "ai.onnx"):
            return None
        if n.op_type == "SequenceConstruct":
            return list(n.input)
        if n.op_type == "SequenceEmpty":
            return []
        if n.op_type == "SequenceInsert":  # at a ``position``: the same elements, in another order
            before = trace(n.input[0], depth + 1)
            return None if before is None else [*before, n.input[1]]
        if n.op_type == "Identity":
            return trace(n.input[0], depth + 1)
        return None

    return trace


def _differing(names: list[str] | None, shape: Callable[[str], list[Dim] | None]) -> set[int]:
    """The axes where two of the elements ``names`` state different dims (an int and another int or a symbol, two
    different symbols); none when an element's rank is unknown or the ranks differ."""
    stated = [shape(n) for n in names or ()]
    if len(stated) < 2 or any(s is None for s in stated) or len({len(s) for s in stated}) != 1:
        return set()
    return {i for i, column in enumerate(zip(*stated, strict=True)) if None not in column and len(set(column)) > 1}


def uncarried(model: onnx.ModelProto, name: str, rank: int) -> frozenset[int]:
    """The axes of the rank-``rank`` tensor ``name`` (a main-graph value of ``model``) that its sequence's type
    cannot carry (module docs); empty when ``name`` is read out of no sequence.

    Source: onnx.proto ``TypeProto.Sequence`` (one ``elem_type``), Operators.md ConcatFromSequence / SequenceAt."""
    g = model.graph
    producer = {o: n for n in g.node for o in n.output if o}
    n = producer.get(name)
    seen = 0
    while n is not None and n.op_type in SAME_SHAPE and n.domain in ("", "ai.onnx") and seen <= len(g.node):
        n, seen = producer.get(n.input[0]) if n.input else None, seen + 1
    if n is None or n.domain not in ("", "ai.onnx") or not n.input:
        return frozenset()
    shape = shapes(g).get
    differ = _differing(elements(g)(n.input[0]), shape)
    if n.op_type == "SequenceAt":
        return frozenset(i for i in differ if i < rank)
    if n.op_type != "ConcatFromSequence" or rank < 1:
        return frozenset()
    attrs = {a.name: a.i for a in n.attribute}
    axis = attrs.get("axis", 0) % rank
    if attrs.get("new_axis", 0):
        return frozenset({axis, *(i if i < axis else i + 1 for i in differ if i + 1 < rank)})
    return frozenset({axis, *(i for i in differ if i < rank)})
