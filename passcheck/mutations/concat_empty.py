"""An empty part in front of a Concat (Operators.md Concat-4/11/13, Shape-15, Broadcasting.md).

Concat's inputs agree on every dim but the axis, where each may have any size, 0 included, so a part of
size 0 on the axis adds nothing: ``Concat(x, y)`` is ``Concat(e, x, y)`` for an empty ``e``. Three ways
to write ``e``, from the plainest to the one that computes on an empty value:

- ``concat-empty-initializer``: an initializer of the first input's dims with 0 on the axis (every other
  dim static; any element type);
- ``concat-empty-shape`` (int64 rank-1 Concats, the shape values a Reshape or Expand reads): ``Shape(x,
  start=0, end=0)`` of the first input, Shape-15's slice selecting no dim, an empty *computed* value;
- ``concat-empty-broadcast`` (the same Concats): ``Add([0], Shape(x, start=0, end=0))``, elementwise
  arithmetic on that empty value, whose length-1 operand Broadcasting.md stretches to length 0.

Main-graph default-domain Concat nodes whose first input's type onnx shape inference knows
(:func:`passcheck.mutations._shapes.known`); opset >= 4 (the ``axis`` attribute required), the computed
spellings opset >= 15 (Shape's ``start`` / ``end``). Sites are the Concat nodes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, fresh_name, is_default_domain, opset
from passcheck.mutations._graph_edit import attr_value, edit_sites, int64_constant, splice
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Concat's ``axis`` is required from opset 4 (Concat-1 defaults it to 1).
MIN_OPSET = 4
#: Shape takes ``start`` / ``end`` from opset 15.
SHAPE_SLICE_OPSET = 15
INT64 = 7


def _prepend(model: onnx.ModelProto, only: frozenset[str] | None, spelling: str) -> list[str]:
    """Give each chosen Concat an empty first part written as ``spelling`` (see the module doc)."""
    import onnx

    version = opset(model)
    if version < (MIN_OPSET if spelling == "initializer" else SHAPE_SLICE_OPSET):
        return []
    g, types, taken = model.graph, known(model), all_names(model)
    before: dict[int, list] = {}

    def edit(i: int, n: onnx.NodeProto):
        first = types.get(n.input[0]) if n.op_type == "Concat" and n.input and n.input[0] else None
        if not is_default_domain(n) or first is None or first.dims is None or not first.elem_type:
            return None
        rank, axis = len(first.dims), attr_value(n, "axis")
        if axis is None or rank == 0 or not -rank <= axis < rank:
            return None
        base = n.name or n.output[0]
        if spelling == "initializer":
            dims = [0 if j == axis % rank else d for j, d in enumerate(first.dims)]
            if not all(isinstance(d, int) for d in dims):
                return None
            part = fresh_name(taken, f"{base}_empty")
            g.initializer.append(onnx.helper.make_tensor(part, first.elem_type, dims, []))
        elif first.elem_type != INT64 or rank != 1:
            return None
        else:
            part = fresh_name(taken, f"{base}_empty")
            shape = onnx.helper.make_node(
                "Shape", [n.input[0]], [part], name=fresh_name(taken, f"{part}_node"), start=0, end=0
            )
            before[i] = [shape]
            if spelling == "broadcast":
                zero = int64_constant(taken, f"{base}_zero", [0])
                total = fresh_name(taken, f"{base}_empty_sum")
                add = onnx.helper.make_node(
                    "Add", [zero.output[0], part], [total], name=fresh_name(taken, f"{total}_node")
                )
                before[i] += [zero, add]
                part = total
        n.input.insert(0, part)
        return ()

    sites = edit_sites(g, only, edit)
    if before:
        splice(g, before=before)
    return sites


def empty_initializer(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Concat(x, …, axis) → Concat(e, x, …, axis), ``e`` an initializer of x's dims with 0 on the axis."""
    return _prepend(model, only, "initializer")


def empty_shape(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Concat(s, …) of int64 rank-1 values → Concat(Shape(s, start=0, end=0), s, …) (opset >= 15)."""
    return _prepend(model, only, "shape")


def empty_broadcast(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Concat(s, …) of int64 rank-1 values → Concat(Add([0], Shape(s, start=0, end=0)), s, …) (opset >= 15)."""
    return _prepend(model, only, "broadcast")


REWRITES = (
    Rewrite(
        "concat-empty-initializer",
        "Concat(x, …, axis) → Concat(e, x, …, axis), e an initializer of size 0 on the axis (Concat-4+)",
        empty_initializer,
    ),
    Rewrite(
        "concat-empty-shape",
        "Concat of int64 rank-1 values → an empty Shape(x, start=0, end=0) part first (Concat-4+, Shape-15)",
        empty_shape,
    ),
    Rewrite(
        "concat-empty-broadcast",
        "Concat of int64 rank-1 values → Add([0], Shape(x, start=0, end=0)) part first: arithmetic on an "
        "empty shape value (Shape-15, Broadcasting.md)",
        empty_broadcast,
    ),
)

FREEDOMS = (
    Freedom(
        "concat-empty-part",
        "operator schemas",
        "Operators.md Concat-4/11/13 (the axis dims may differ, 0 included); Shape-15 (start = end selects no "
        "dim); Broadcasting.md (a dim of 1 stretches to any size, 0 included)",
        "A Concat gives the same tensor with one more input of size 0 on the axis, whether that input is an "
        "empty initializer, an empty slice of a shape, or arithmetic broadcasting a length-1 value against one.",
        ("concat-empty-initializer", "concat-empty-shape", "concat-empty-broadcast"),
        "main-graph Concat nodes whose first input's type onnx shape inference knows, the part placed first; "
        "the initializer needs the other dims static, the computed parts an int64 rank-1 Concat at opset >= 15",
    ),
)
