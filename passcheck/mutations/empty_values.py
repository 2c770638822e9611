"""An empty int64 value through each of onnx's data propagators (Operators.md, Broadcasting.md).

onnx shape inference with data propagation carries the *values* of small int64 tensors through the ops
whose schema has a ``PartialDataPropagationFunction`` (onnx/defs: Shape, Size, Cast, Concat, Gather,
Slice, Squeeze, Unsqueeze, Add, Sub, Mul), so that a Reshape / Expand / ConstantOfShape reading the
result gets its dims. Each rewrite here takes an int64 rank-1 Concat (the shape vectors those readers
read) and routes a value of length 0 through one of those ops, leaving every value the Concat makes as
it was. The empty value is ``e = Shape(s, start=0, end=0)`` of the Concat's first input ``s`` (Shape-15:
``start = end`` selects no dim, shape ``[0]``).

An empty part prepended to the Concat (Concat-4/11/13: the inputs may differ on the axis, 0 included),
computed through one more op (``empty-part-OP``):

- ``gather``: ``Gather(s, e)``, empty indices (Gather-13: output shape is the indices' shape, ``[0]``);
- ``slice``: ``Slice(e, [0], [INT64_MAX])``, empty data (Slice-13: the bounds clamp to ``[0, 0]``);
- ``unsqueeze``: ``Squeeze(Unsqueeze(e, [0]), [0])`` (Unsqueeze-13 gives ``[1, 0]``, Squeeze-13 removes
  the dim of size 1 again);
- ``cast``: ``Cast(e, to=INT64)`` (Cast-13: same shape);
- ``sub``, ``mul``: ``Sub(e, [0])``, ``Mul(e, [1])`` (Broadcasting.md: the length-1 operand stretches to 0);
- ``concat``: ``Concat(e, e)`` (two parts of size 0).

An empty value absorbed into the first input ``s`` itself (``s`` replaced by the same value):

- ``empty-size-add``: ``Add(s, Size(e))`` (Size-13: a 0-D count, 0 for an empty tensor; a 0-D operand
  broadcasts);
- ``empty-shape-sub``: ``Sub(s, Shape(e))`` (Shape of a 0-size tensor is ``[0]``, length 1, broadcast);
- ``empty-slice-params``: ``Slice(s, e, e, e)`` (Slice-13: ``starts`` / ``ends`` / ``axes`` of length
  0 slice no axis: a copy);
- ``empty-unsqueeze-axes``: ``Unsqueeze(s, e)`` (Unsqueeze-13: output rank is ``rank + len(axes)``: a copy);
- ``empty-fill-add``: ``Add(s, ConstantOfShape(e, value=[0]))`` (ConstantOfShape-9+: an empty shape makes
  a 0-D tensor, here int64 0);
- ``empty-expand-add``: ``Add(s, Expand(0, e))`` (Expand-13: a 0-D input broadcast to the empty shape stays 0-D);
- ``empty-reshape-add``: ``Add(s, Reshape([0], e))`` (Reshape-14: an empty shape makes a 0-D tensor of the one
  element).

The last three are readers of a shape, not data propagators: onnx infers their 0-D output, and no
propagator carries its value, so data propagation stops there in every onnx version.

Not written: Squeeze with an empty ``axes`` input (Squeeze-13 says an omitted ``axes`` removes every
dim of size 1 and is silent on a given empty one). Main-graph default-domain Concat nodes whose first
input onnx shape inference types int64 of rank 1 (:func:`passcheck.mutations._shapes.known`), opset >= 15
(Shape's ``start`` / ``end``). Sites are the Concat nodes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, fresh_name, is_default_domain, opset
from passcheck.mutations._graph_edit import attr_value, edit_sites, int64_constant, splice
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Shape takes ``start`` / ``end`` from opset 15 (every other op used here takes its inputs by then).
MIN_OPSET = 15
INT64 = 7
INT64_MAX = 2**63 - 1

#: ``(make, s, e) → (nodes, value)``: the nodes computing ``value`` from ``s`` and the empty ``e``.
Build = Callable[[Callable[..., str], str, str], tuple[list, str]]


class _Maker:
    """Fresh names for the nodes of one site."""

    def __init__(self, taken: set[str], base: str) -> None:
        self.taken, self.base, self.nodes = taken, base, []

    def __call__(self, op: str, inputs: list[str], **attrs) -> str:
        import onnx

        out = fresh_name(self.taken, f"{self.base}_{op.lower()}")
        self.nodes.append(onnx.helper.make_node(op, inputs, [out], name=fresh_name(self.taken, f"{out}_node"), **attrs))
        return out

    def const(self, values: list[int], dims: list[int] | None = None) -> str:
        node = int64_constant(self.taken, f"{self.base}_c", values, dims)
        self.nodes.append(node)
        return node.output[0]


def _edit(model: onnx.ModelProto, only: frozenset[str] | None, build, prepend: bool) -> list[str]:
    """At each chosen shape Concat, compute ``build(make, s, e)`` and prepend it (``prepend``) or read it
    in place of the first input ``s``."""
    if opset(model) < MIN_OPSET:
        return []
    g, types, taken = model.graph, known(model), all_names(model)
    before: dict[int, list] = {}

    def edit(i: int, n: onnx.NodeProto):
        first = types.get(n.input[0]) if n.op_type == "Concat" and n.input and n.input[0] else None
        if not is_default_domain(n) or first is None or first.elem_type != INT64 or first.rank != 1:
            return None
        if attr_value(n, "axis") not in (0, -1):
            return None
        s = n.input[0]
        make = _Maker(taken, f"{n.name or n.output[0]}_empty")
        e = make("Shape", [s], start=0, end=0)
        value = build(make, s, e)
        before[i] = make.nodes
        if prepend:
            n.input.insert(0, value)
        else:
            n.input[0] = value
        return ()

    sites = edit_sites(g, only, edit)
    if before:
        splice(g, before=before)
    return sites


def _rewrite(rid: str, doc: str, build, prepend: bool) -> Rewrite:
    def edit(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
        return _edit(model, only, build, prepend)

    edit.__doc__ = doc
    return Rewrite(rid, doc, edit)


def _unsqueezed(make, s, e):
    axis = make.const([0])
    return make("Squeeze", [make("Unsqueeze", [e, axis]), axis])


#: id → (doc, build): an empty part through one more op, prepended.
PARTS = {
    "empty-part-gather": ("Gather(s, e), empty indices (Gather-13)", lambda make, s, e: make("Gather", [s, e], axis=0)),
    "empty-part-slice": (
        "Slice(e, [0], [INT64_MAX]), empty data (Slice-13)",
        lambda make, s, e: make("Slice", [e, make.const([0]), make.const([INT64_MAX])]),
    ),
    "empty-part-unsqueeze": ("Squeeze(Unsqueeze(e, [0]), [0]) (Unsqueeze-13, Squeeze-13)", _unsqueezed),
    "empty-part-cast": ("Cast(e, to=INT64) (Cast-13)", lambda make, s, e: make("Cast", [e], to=INT64)),
    "empty-part-sub": ("Sub(e, [0]) (Broadcasting.md)", lambda make, s, e: make("Sub", [e, make.const([0])])),
    "empty-part-mul": ("Mul(e, [1]) (Broadcasting.md)", lambda make, s, e: make("Mul", [e, make.const([1])])),
    "empty-part-concat": ("Concat(e, e) (Concat-13)", lambda make, s, e: make("Concat", [e, e], axis=0)),
}


def _fill(make, s, e):
    import onnx

    zero = onnx.helper.make_tensor("value", INT64, [1], [0])
    return make("Add", [s, make("ConstantOfShape", [e], value=zero)])


def _expand(make, s, e):
    return make("Add", [s, make("Expand", [make.const([0], dims=[]), e])])


def _reshape(make, s, e):
    return make("Add", [s, make("Reshape", [make.const([0]), e])])


#: id → (doc, build): the first input ``s`` replaced by a copy computed with an empty value.
ABSORBED = {
    "empty-size-add": ("s → Add(s, Size(e)) (Size-13: 0, 0-D)", lambda make, s, e: make("Add", [s, make("Size", [e])])),
    "empty-shape-sub": (
        "s → Sub(s, Shape(e)) (Shape of a 0-size tensor: [0])",
        lambda make, s, e: make("Sub", [s, make("Shape", [e])]),
    ),
    "empty-slice-params": (
        "s → Slice(s, e, e, e): starts / ends / axes of length 0 (Slice-13)",
        lambda make, s, e: make("Slice", [s, e, e, e]),
    ),
    "empty-unsqueeze-axes": (
        "s → Unsqueeze(s, e): no axis inserted (Unsqueeze-13)",
        lambda make, s, e: make("Unsqueeze", [s, e]),
    ),
    "empty-fill-add": (
        "s → Add(s, ConstantOfShape(e, value=[0])): an empty shape read, a 0-D 0 (ConstantOfShape-9+)",
        _fill,
    ),
    "empty-expand-add": ("s → Add(s, Expand(0, e)): a 0-D 0 broadcast to an empty shape (Expand-13)", _expand),
    "empty-reshape-add": ("s → Add(s, Reshape([0], e)): one element reshaped to an empty shape (Reshape-14)", _reshape),
}

_WHAT = "an int64 rank-1 Concat (axis 0) at opset >= 15, e = Shape(first input, start=0, end=0)"

REWRITES = tuple(
    _rewrite(
        rid,
        f"Concat(s, …) → Concat({doc.split(' (')[0]}, s, …): an empty part through one more op; {_WHAT}",
        build,
        True,
    )
    for rid, (doc, build) in PARTS.items()
) + tuple(_rewrite(rid, f"Concat's first input {doc}; {_WHAT}", build, False) for rid, (doc, build) in ABSORBED.items())

FREEDOMS = (
    Freedom(
        "empty-part-through-op",
        "operator schemas",
        "Operators.md Concat-13 (parts may have size 0 on the axis); Shape-15 (start = end: no dim); Gather-13 "
        "(output shape from the indices' shape); Slice-13 (bounds clamped to the dim); Unsqueeze-13 / Squeeze-13; "
        "Cast-13; Broadcasting.md (a length-1 operand stretches to 0)",
        "An empty part of a shape Concat may be computed through any op that keeps a value of length 0 empty: "
        "gathered by empty indices, sliced, unsqueezed and squeezed back, cast, combined with a length-1 operand, "
        "or concatenated with itself; the Concat's value is unchanged.",
        tuple(PARTS),
        "main-graph int64 rank-1 Concats on axis 0 whose first input's type onnx infers, opset >= 15; the part "
        "placed first",
    ),
    Freedom(
        "empty-value-absorbed",
        "operator schemas",
        "Operators.md Size-13 (0 for an empty tensor, 0-D); Shape-15 (a 0-size tensor's shape is [0]); Slice-13 "
        "(starts / ends / axes of length 0: nothing sliced); Unsqueeze-13 (rank + len(axes)); ConstantOfShape-9+ "
        "(an empty shape gives a 0-D tensor); Expand-13, Reshape-14 (an empty shape: 0-D); Broadcasting.md (0-D and "
        "length-1 operands broadcast)",
        "A shape vector equals itself plus the size of an empty value, minus the shape of one, sliced or unsqueezed "
        "by empty parameters, or plus a 0-D zero filled, expanded or reshaped to an empty shape.",
        tuple(ABSORBED),
        "the first input of a main-graph int64 rank-1 Concat on axis 0 whose type onnx infers, opset >= 15",
    ),
)
