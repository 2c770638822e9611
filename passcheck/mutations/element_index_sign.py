"""Non-negative ↔ negative static indices of the indexing ops other than Gather (whose indices are
:mod:`passcheck.mutations.index_sign`'s). ONNX operator spec:

- GatherElements-11/13 and ScatterElements-11/13/16/18: every index lies in [-s, s-1], s the size of
  ``data`` on ``axis``;
- GatherND-11/12/13: ``indices[..., k]`` lies in [-s, s-1], s the size of ``data`` on axis
  ``batch_dims + k``;
- OneHot-11: an index in [-depth, depth-1] marks that position, a negative one counting from the back
  (OneHot-9 took non-negative indices only).

So an index ``i >= 0`` and ``i - s`` name the same element. The rewrites give the node a fresh tensor
holding the other spelling (an initializer for an initializer, a Constant for a Constant; the old one
goes when nothing else reads it). Main graph only, integer indices only, where each size is static
(shape inference's dims; OneHot: a static integer depth). Sites are the rewritten nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations._base import (
    Rewrite,
    opset,
    static_tensors,
)
from passcheck.mutations._freedom import Freedom
from passcheck.mutations._graph_edit import attr_value
from passcheck.mutations._shapes import known
from passcheck.mutations.index_sign import flip_static_inputs

if TYPE_CHECKING:
    import numpy as np
    import onnx

#: op → the first opset whose schema lets its ``indices`` input (slot 1; OneHot: slot 0) be negative.
INDEX_INPUTS: dict[str, int] = {"GatherElements": 11, "ScatterElements": 11, "GatherND": 11, "OneHot": 11}


def _dims(k, axes: list[int]) -> list[int] | None:
    """The static sizes of ``k``'s dims ``axes`` (each in [0, rank)), or None when one is unknown."""
    if k is None or k.rank is None or not all(0 <= a < k.rank for a in axes):
        return None
    sizes = [k.dims[a] for a in axes]
    return sizes if all(isinstance(s, int) and s > 0 for s in sizes) else None


def _sizes(n: onnx.NodeProto, indices: np.ndarray, types: dict, static: dict) -> np.ndarray | int | None:
    """What each entry of ``indices`` is counted against (broadcastable to it), or None when not static."""
    import numpy as np
    from onnx import numpy_helper

    data = types.get(n.input[0])
    if n.op_type in ("GatherElements", "ScatterElements"):
        if data is None or data.rank is None:
            return None
        axis = attr_value(n, "axis", 0)
        sizes = _dims(data, [axis + data.rank if axis < 0 else axis])
        return None if sizes is None else sizes[0]
    if n.op_type == "GatherND":
        if indices.ndim < 1:
            return None
        b = attr_value(n, "batch_dims", 0)
        sizes = _dims(data, list(range(b, b + indices.shape[-1])))
        return None if sizes is None else np.array(sizes, dtype=indices.dtype)
    if n.input[1] not in static:  # OneHot: the depth
        return None
    depth = numpy_helper.to_array(static[n.input[1]])
    if depth.dtype.kind not in "iu" or depth.size != 1 or int(depth.reshape(-1)[0]) <= 0:
        return None
    return int(depth.reshape(-1)[0])


def _edit(model: onnx.ModelProto, only: frozenset[str] | None, negative: bool) -> list[str]:
    version, static, types = opset(model), static_tensors(model.graph), {}

    def slot_of(n: onnx.NodeProto) -> int | None:
        since = INDEX_INPUTS.get(n.op_type)
        return None if since is None or version < since else (0 if n.op_type == "OneHot" else 1)

    def sizes_of(n: onnx.NodeProto, values: np.ndarray):
        if not types:
            types.update(known(model))
        return _sizes(n, values, types, static)

    return flip_static_inputs(model, only, negative, slot_of, sizes_of)


def indices_negative(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """GatherElements/ScatterElements/GatherND/OneHot static indices: every i >= 0 → i - s."""
    return _edit(model, only, negative=True)


def indices_positive(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """GatherElements/ScatterElements/GatherND/OneHot static indices: every i < 0 → i + s."""
    return _edit(model, only, negative=False)


REWRITES = (
    Rewrite(
        "element-indices-negative",
        "static GatherElements/ScatterElements/GatherND/OneHot indices i >= 0 → i - s (s static; opset >= 11)",
        indices_negative,
        inverse="element-indices-positive",
    ),
    Rewrite(
        "element-indices-positive",
        "static GatherElements/ScatterElements/GatherND/OneHot indices i < 0 → i + s (s static; opset >= 11)",
        indices_positive,
        inverse="element-indices-negative",
    ),
)

FREEDOMS = (
    Freedom(
        "element-index-sign",
        "operator schemas",
        "Operators.md GatherElements-11/13, ScatterElements-11+, GatherND-11+ (indices in [-s, s-1] along an axis "
        "of size s), OneHot-11 (indices in [-depth, depth-1])",
        "A static index of GatherElements, ScatterElements, GatherND or OneHot may be counted from the front (i) "
        "or from the back (i - s) of the axis it indexes.",
        ("element-indices-negative", "element-indices-positive"),
        "main-graph nodes with static integer indices (initializer or Constant, fresh tensor of the same "
        "spelling) whose indexed sizes are static: data's dim on axis, GatherND's dims batch_dims.. per index "
        "column, OneHot's integer depth; opset >= 11",
    ),
)
