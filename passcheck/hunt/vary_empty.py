"""A neighbour whose broadcast constant holds no element: a size-1 dim of the other operands stretches to 0.

Broadcasting.md (Operators.md, "Broadcasting in ONNX", multidirectional): two aligned dims are compatible when they
are equal or one of them is 1, and a dim of 1 is stretched to the other's size, 0 included (IR.md allows a
zero-size dim: a tensor may have no element). So where every other operand of every reader of a constant has a
static 1 at an aligned axis (a ``keepdims`` reduction's reduced axis, a batch of 1) or no dim there, the constant may
hold 0 there: the readers' outputs then have a 0 at that axis, and so does every value computed from them
elementwise. A pass that takes such a constant for one value (reads its first element, or decides it is the
identity of the op) reads an element that is not there, or drops an op that decides the output's shape.

Form id ``vary:shape-empty@<constant>`` (:mod:`.variation`; family ``shape``): the constant (an initializer no
graph input overrides, or a Constant's output, at most :data:`.graph_values.SMALL` elements, at least one) read only
by multidirectionally broadcasting nodes becomes a zero-filled tensor of its own shape, left-padded with 1s up to
the axis, with a 0 at the rightmost aligned axis where every reader's other operands have a static 1 or no dim and
the reader's output has that axis (so no output gains rank). Not equivalent (the outputs lose their elements); the
annotations are refreshed by the caller (:func:`.variation.build`). Whether the values downstream still broadcast
(a reader further on may hold a dim of 3 there) is for the variation gate: such a neighbour is invalid and left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.hunt.graph_values import SMALL
from passcheck.hunt.graph_values import constants as _constants
from passcheck.hunt.graph_values import readers as _readers
from passcheck.hunt.graph_values import replace as _replace

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    import numpy as np
    import onnx

KIND = "shape-empty"
KINDS = (KIND,)


def is_kind(k: str) -> bool:
    """Whether ``k`` (no ``vary:`` prefix) is this module's kind."""
    return k == KIND


def _dims(name: str, shapes: Mapping[str, onnx.TypeProto]) -> list[int | None] | None:
    """Static dims of ``name`` (None for a symbolic or unknown dim), or None when its rank is unknown."""
    t = shapes.get(name)
    if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    return [d.dim_value if d.HasField("dim_value") else None for d in t.tensor_type.shape.dim]


def axis(
    model: onnx.ModelProto,
    name: str,
    shapes: Mapping[str, onnx.TypeProto],
    broadcasts: Callable[[onnx.NodeProto, int], bool],
) -> int | None:
    """The aligned axis ``j`` (counted from the right, 1 = last) at which constant ``name`` may hold 0, or None.

    ``shapes``: value name → TypeProto (inferred); ``broadcasts(node, index)``: whether ``node`` broadcasts its input
    ``index`` multidirectionally. None when a reader broadcasts it otherwise, or an operand's or output's rank is
    unknown, or no axis has a static 1 (or no dim) in every other operand."""
    reads = _readers(model).get(name, [])
    if not reads:
        return None
    limit, others = None, []
    for node, index in reads:
        if not broadcasts(node, index) or not node.output:
            return None
        out = _dims(node.output[0], shapes)
        if out is None:
            return None
        limit = len(out) if limit is None else min(limit, len(out))
        for i, other in enumerate(node.input):
            if other == name or i == index:
                continue
            dims = _dims(other, shapes)
            if dims is None:
                return None
            others.append(dims)
    for j in range(1, (limit or 0) + 1):  # rightmost first
        if all(len(d) < j or d[-j] == 1 for d in others):
            return j
    return None


def candidates(
    model: onnx.ModelProto,
    shapes: Mapping[str, onnx.TypeProto],
    broadcasts: Callable[[onnx.NodeProto, int], bool],
) -> Iterator[tuple[str, str]]:
    """(kind, constant name) for every constant this kind may empty (see module docs)."""
    for name, arr in _constants(model).items():
        if not 0 < arr.size <= SMALL:
            continue
        if axis(model, name, shapes, broadcasts) is not None:
            yield KIND, name


def emptied(arr: np.ndarray, j: int) -> np.ndarray:
    """``arr``'s shape left-padded with 1s to rank ``max(arr.ndim, j)``, dim ``-j`` set to 0: zero elements of its
    dtype."""
    import numpy as np

    shape = [1] * max(0, j - arr.ndim) + list(arr.shape)
    shape[-j] = 0
    return np.zeros(shape, dtype=arr.dtype)


def build(
    model: onnx.ModelProto,
    name: str,
    shapes: Mapping[str, onnx.TypeProto],
    broadcasts: Callable[[onnx.NodeProto, int], bool],
) -> bool:
    """``model``'s constant ``name`` emptied in place (:func:`emptied` at :func:`axis`); False when it is no site."""
    arr = _constants(model).get(name)
    if arr is None or not 0 < arr.size <= SMALL:
        return False
    j = axis(model, name, shapes, broadcasts)
    if j is None:
        return False
    _replace(model, name, emptied(arr, j))
    return True
