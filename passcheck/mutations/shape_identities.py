"""One shape-making op written as another, the same tensor either way (each identity both ways).
ONNX operator spec:

- ``ConstantOfShape(shape, value=[v])`` ↔ ``Expand(v, shape)`` (ConstantOfShape-9/20/21/23/25: a
  tensor of the given shape filled with the one-element ``value``, float32 0 when absent; Expand-8/13:
  multidirectional broadcasting of the input to ``shape``): a 0-D ``v`` broadcast to ``shape`` is
  ``shape`` filled with ``v``. Back, ``v`` may also be one element of rank <= the shape's static
  length.
- ``Tile(x, repeats)`` ↔ ``Expand(x, repeats)`` (Tile-6/13: output dim i is ``d_i * r_i``) where every
  dim with ``r_i != 1`` is statically 1: there ``d_i * r_i = r_i``, which is also what broadcasting 1
  against ``r_i`` gives, and ``r_i = 1`` keeps ``d_i`` both ways. Back, ``Expand(x, s)`` with ``s`` of
  x's rank is ``Tile(x, r)`` with ``r_i = s_i`` where ``d_i`` is statically 1 and ``r_i = 1`` where
  ``s_i`` is 1 or equals the static ``d_i``.

Main graph only; sites are the rewritten nodes; shapes must be static tensors (initializers or
Constant outputs); dims and element types from shape inference."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    all_names,
    chosen,
    drop_unused,
    is_default_domain,
    node_label,
    opset,
    static_tensors,
)
from passcheck.mutations._graph_edit import attr_value, drop_attribute, edit_sites, int64_constant, splice
from passcheck.mutations._schema_types import accepts
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.op_identities import scalar_constant
from passcheck.typestr import schema_type

if TYPE_CHECKING:
    import onnx

#: ConstantOfShape exists from opset 9, Expand from 8, Tile takes repeats as an input from 6.
CONSTANT_OF_SHAPE, EXPAND = 9, 8
FLOAT = 1


@functools.lru_cache(maxsize=256)
def _fills(version: int, elem_type: int) -> bool:
    """Whether ConstantOfShape at opset ``version`` makes ``tensor(elem_type)`` (its T2 constraint)."""
    import onnx
    import onnx.defs

    try:
        schema = onnx.defs.get_schema("ConstantOfShape", version, "")
        wanted = schema_type(elem_type)
    except (onnx.defs.SchemaError, ValueError):
        return False
    allowed = {c.type_param_str: set(c.allowed_type_strs) for c in schema.type_constraints}
    return wanted in allowed.get("T2", set())


def constant_of_shape_to_expand(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """ConstantOfShape(shape, value=[v]) → Expand(Constant 0-D v, shape) (opset >= 9; v float32 0 when absent)."""
    from onnx import numpy_helper

    g, version = model.graph, opset(model)
    if version < CONSTANT_OF_SHAPE:
        return []
    taken, before, sites = all_names(model), {}, []
    for i, n in enumerate(g.node):
        label = node_label(n, i)  # as in the model given, before the edit
        if n.op_type != "ConstantOfShape" or not is_default_domain(n) or not chosen(only, label):
            continue
        value = attr_value(n, "value", None)
        elem_type = FLOAT if value is None else value.data_type
        v = 0.0 if value is None else numpy_helper.to_array(value).reshape(-1)
        if value is not None and v.size != 1:
            continue
        if not accepts("Expand", version, elem_type) or not accepts("Constant", version, elem_type):
            continue
        c = scalar_constant(taken, f"{n.output[0]}_value", v if value is None else v[0], elem_type)
        before[i] = [c]
        drop_attribute(n, "value")
        n.op_type = "Expand"
        n.input[:] = [c.output[0], n.input[0]]
        sites.append(label)
    if sites:
        splice(g, before)
    return sites


def expand_to_constant_of_shape(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Expand(static one-element v, shape) → ConstantOfShape(shape, value=[v]); v 0-D, or of rank <= the
    shape's static length (opset >= 9)."""
    import onnx
    from onnx import numpy_helper

    types, static, version = known(model), static_tensors(model.graph), opset(model)
    if version < CONSTANT_OF_SHAPE:
        return []

    def fill(_i: int, n: onnx.NodeProto) -> list[str] | None:
        if n.op_type != "Expand" or not is_default_domain(n) or len(n.input) != 2 or n.input[0] not in static:
            return None
        t, shape = static[n.input[0]], types.get(n.input[1])
        arr = numpy_helper.to_array(t)
        length = shape.dims[0] if shape is not None and shape.rank == 1 else None
        if arr.size != 1 or not (arr.ndim == 0 or isinstance(length, int) and arr.ndim <= length):
            return None
        if not _fills(version, t.data_type):
            return None
        freed = [n.input[0]]
        n.op_type = "ConstantOfShape"
        n.input[:] = [n.input[1]]
        n.attribute.append(onnx.helper.make_attribute("value", numpy_helper.from_array(arr.reshape(1))))
        return freed

    return edit_sites(model.graph, only, fill)


def _static_ints(name: str, static) -> list[int] | None:
    from onnx import numpy_helper

    return [int(v) for v in numpy_helper.to_array(static[name]).reshape(-1)] if name in static else None


def tile_to_expand(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Tile(x, static repeats) → Expand(x, repeats) where every dim of x with r_i != 1 is statically 1 (opset >= 8)."""
    g, types, static, version = model.graph, known(model), static_tensors(model.graph), opset(model)
    if version < EXPAND:
        return []
    sites = []
    for i, n in enumerate(g.node):
        label = node_label(n, i)  # as in the model given, before the edit
        if n.op_type != "Tile" or not is_default_domain(n) or len(n.input) != 2 or not chosen(only, label):
            continue
        k, repeats = types.get(n.input[0]), _static_ints(n.input[1], static)
        if k is None or k.dims is None or repeats is None or len(repeats) != k.rank:
            continue
        if any(r != 1 and d != 1 for r, d in zip(repeats, k.dims, strict=True)):
            continue
        if not accepts("Expand", version, k.elem_type):
            continue
        n.op_type = "Expand"
        sites.append(label)
    return sites


def _repeats(shape: list[int], dims) -> list[int] | None:
    out = []
    for s, d in zip(shape, dims, strict=True):
        if d == 1:
            out.append(s)
        elif s == 1 or isinstance(d, int) and s == d:
            out.append(1)
        else:
            return None
    return out


def expand_to_tile(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Expand(x, static shape of x's rank) → Tile(x, r), r_i = s_i where d_i is 1 and 1 where s_i is 1 or d_i
    (opset >= 8)."""
    g, types, static, version = model.graph, known(model), static_tensors(model.graph), opset(model)
    if version < EXPAND:
        return []
    taken, before, sites, freed = all_names(model), {}, [], set()
    for i, n in enumerate(g.node):
        label = node_label(n, i)  # as in the model given, before the edit
        if (
            n.op_type != "Expand"
            or not is_default_domain(n)
            or len(n.input) != 2
            or n.input[0] in static
            or not chosen(only, label)
        ):
            continue
        k, shape = types.get(n.input[0]), _static_ints(n.input[1], static)
        if (
            k is None
            or k.dims is None
            or shape is None
            or len(shape) != k.rank
            or not accepts("Tile", version, k.elem_type)
        ):
            continue
        repeats = _repeats(shape, k.dims)
        if repeats is None:
            continue
        if repeats != shape:
            c = int64_constant(taken, f"{n.output[0]}_repeats", repeats)
            before[i] = [c]
            freed.add(n.input[1])
            n.input[1] = c.output[0]
        n.op_type = "Tile"
        sites.append(label)
    if sites:
        splice(g, before)
        drop_unused(g, freed)
    return sites


REWRITES = (
    Rewrite(
        "constant-of-shape-as-expand",
        "ConstantOfShape(shape, value=[v]) → Expand(scalar v, shape) (exact)",
        constant_of_shape_to_expand,
        inverse="expand-scalar-as-constant-of-shape",
    ),
    Rewrite(
        "expand-scalar-as-constant-of-shape",
        "Expand(static one-element v, shape) → ConstantOfShape(shape, value=[v]) (exact)",
        expand_to_constant_of_shape,
        inverse="constant-of-shape-as-expand",
    ),
    Rewrite(
        "tile-as-expand",
        "Tile(x, r) → Expand(x, r) where every repeated dim of x is 1 (exact)",
        tile_to_expand,
        inverse="expand-as-tile",
    ),
    Rewrite(
        "expand-as-tile",
        "Expand(x, s of x's rank) → Tile(x, r) (r_i = s_i on dims of 1, else 1; exact)",
        expand_to_tile,
        inverse="tile-as-expand",
    ),
)

FREEDOMS = (
    Freedom(
        "constant-of-shape-as-expand",
        "algebra",
        "Operators.md ConstantOfShape-9/20/21/23/25, Expand-8/13; Broadcasting.md",
        "A tensor of a given shape filled with v is the scalar v broadcast to that shape.",
        ("constant-of-shape-as-expand", "expand-scalar-as-constant-of-shape"),
        "main-graph ConstantOfShape nodes whose value type Expand takes; back, Expand of a static one-element "
        "tensor (0-D, or of rank <= the shape's static length) whose type ConstantOfShape makes at the opset",
    ),
    Freedom(
        "tile-as-expand",
        "algebra",
        "Operators.md Tile-6/13, Expand-8/13; Broadcasting.md",
        "Tiling a dim of size 1 r times is broadcasting it to r; a repeat of 1 and a broadcast to 1 keep the dim.",
        ("tile-as-expand", "expand-as-tile"),
        "main-graph Tile nodes with static repeats whose repeated dims are statically 1; back, Expand of a "
        "non-constant input to a static shape of its rank, each target dim 1, the input's static dim, or over "
        "a static 1",
    ),
)
