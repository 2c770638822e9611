"""Scales at a floor edge: a neighbour whose Resize / Upsample ``scales`` decide an output dim by a hair.

Operators.md Resize (10 … 19) and Upsample-9 give each output dim as ``floor(input_dim * scale)`` (Resize-11+
with ``roi_end - roi_start`` = 1 outside ``tf_crop_and_resize``), where ``scale`` is a float tensor element and
the product is the mathematical one. The scales of the shipped bases are dyadic (2.0, 0.5) on small dims, so the
product is exact in every precision and no rounding decides the floor. Here, per axis whose static input dim
``d`` is not a power of two and whose scale is not 1, the scale becomes the float32 value nearest ``k / d`` (the
``k`` closest to ``d * scale`` for which this holds) whose exact product with ``d`` lies just below ``k`` while a
float32 product rounds up to ``k``: ``floor`` of the one is ``k - 1``, of the other ``k``. The spec's answer is the
exact one (onnx's reference evaluator computes it); a shape inference, fold or kernel that multiplies in float32
gives the other. A power-of-two ``d`` has no such value (``d * c`` is exact in float32 too).

Kind ``value-floor-edge`` (site: the constant's name): a float32 vector read only as the ``scales`` input of
Resize (input 2 from opset 11, input 1 at opset 10) or Upsample-9 (input 1) nodes whose data inputs have the same
dims, one per scale (or per entry of Resize-18's ``axes``); an axis whose dim is not static keeps its scale.

Not equivalent: output dims change. The caller refreshes the annotations from onnx shape inference, then
:func:`loosen` leaves the dims of every value downstream of the readers unstated (IR.md: a dim with neither field
is unknown; the rank is kept): those dims are the question the neighbour asks, so it states no answer of its own
that a run could contradict (a neighbour whose own annotation fails at run time is no valid form), and the
passes' annotations are what the oracles judge against the runs.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import onnx

KIND = "value-floor-edge"
KINDS = (KIND,)
#: The op types whose ``scales`` input the kind changes (Operators.md Resize 10+, Upsample-9).
READERS = frozenset({"Resize", "Upsample"})
#: How far from ``round(d * scale)`` the search for ``k`` goes.
SPAN = 8


def is_kind(k: str) -> bool:
    """Whether variation kind ``k`` (no prefix) is this module's."""
    return k == KIND


def edge(d: int, scale: float) -> np.float32 | None:
    """The float32 scale nearest ``scale`` among ``float32(k / d)`` with ``floor(d * c)`` exact = ``k - 1`` and
    float32 = ``k``, or None (``d`` < 2 or a power of two, ``scale`` <= 0, or no ``k`` within :data:`SPAN`)."""
    import numpy as np

    if d < 2 or d & (d - 1) == 0 or not scale > 0:
        return None
    target = max(1, round(d * scale))
    for k in sorted(range(max(1, target - SPAN), target + SPAN + 1), key=lambda k: (abs(k - target), k)):
        c = np.float32(k / d)
        if math.floor(d * float(c)) != math.floor(float(np.float32(d) * c)):  # d * c is exact in float64
            return c
    return None


def _scales_index(node: onnx.NodeProto, opset: int) -> int | None:
    if node.op_type == "Resize" and node.domain in ("", "ai.onnx"):
        mode = next((a.s for a in node.attribute if a.name == "coordinate_transformation_mode"), b"")
        return None if mode == b"tf_crop_and_resize" else (1 if opset == 10 else 2)
    if node.op_type == "Upsample" and node.domain in ("", "ai.onnx") and opset == 9:
        return 1
    return None


def _dims(node: onnx.NodeProto, shapes: dict[str, Any], size: int) -> tuple[int, ...] | None:
    """The dims the scales of ``node`` apply to (Resize-18 ``axes`` picks them; None for a dim that is not
    static), or None when the rank is unknown or is not the number of scales."""
    t = shapes.get(node.input[0])
    if t is None or not t.HasField("tensor_type") or not t.tensor_type.HasField("shape"):
        return None
    dims = [d.dim_value if d.HasField("dim_value") else None for d in t.tensor_type.shape.dim]
    axes = next((list(a.ints) for a in node.attribute if a.name == "axes"), None)
    if axes is not None:
        dims = [dims[a] if -len(dims) <= a < len(dims) else None for a in axes]
    return tuple(dims) if len(dims) == size else None


def changed(model: onnx.ModelProto, name: str, arr: np.ndarray, shapes: dict[str, Any], readers) -> np.ndarray | None:
    """``arr`` (constant ``name`` of ``model``) with each eligible scale at its floor edge (module docs), or None
    when it is no scales vector of such readers or no axis has an edge. ``shapes``: value → TypeProto;
    ``readers``: value → [(node, input index)]."""
    import numpy as np

    from passcheck.mutations._base import opset

    reads = readers.get(name, [])
    if arr.dtype != np.float32 or arr.ndim != 1 or not reads:
        return None
    version = opset(model)
    all_dims = set()
    for node, index in reads:
        if _scales_index(node, version) != index:
            return None
        all_dims.add(_dims(node, shapes, arr.size))
    if len(all_dims) != 1 or None in all_dims:
        return None
    (dims,) = all_dims
    new = arr.copy()
    for i, (d, s) in enumerate(zip(dims, arr.tolist(), strict=True)):
        c = None if s == 1.0 or d is None else edge(d, s)
        if c is not None:
            new[i] = c
    return new if (new != arr).any() else None


def candidates(model: onnx.ModelProto, consts: dict[str, np.ndarray], shapes: dict[str, Any], readers):
    """(kind, site) of every constant :func:`changed` changes."""
    for name, arr in consts.items():
        if changed(model, name, arr, shapes, readers) is not None:
            yield KIND, name


def loosen(model: onnx.ModelProto, name: str) -> None:
    """Every value computed (directly or not) from a reader of constant ``name``: its value_info entry dropped,
    as a graph output its dims left unstated (rank and element type kept). ``model`` is changed in place."""
    from passcheck.hunt.graph_values import readers as _readers

    reads = _readers(model)
    todo = [o for n, _ in reads.get(name, []) for o in n.output if o]
    seen: set[str] = set()
    while todo:
        v = todo.pop()
        if v not in seen:
            seen.add(v)
            todo += [o for n, _ in reads.get(v, []) for o in n.output if o]
    kept = [vi for vi in model.graph.value_info if vi.name not in seen]
    del model.graph.value_info[:]
    model.graph.value_info.extend(kept)
    for out in model.graph.output:
        if out.name in seen and out.type.tensor_type.HasField("shape"):
            for d in out.type.tensor_type.shape.dim:
                d.Clear()
