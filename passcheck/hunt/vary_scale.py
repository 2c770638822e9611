"""Scales at a floor edge, sizes at a rounding tie: neighbours whose Resize / Upsample output dims are decided by a
hair.

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

Kind ``value-round-tie`` (site: the constant's name): the ``sizes`` (input 3) of Resize-18+ nodes, int64, two or
more entries on static dims. Operators.md Resize-18/19 ``keep_aspect_ratio_policy``: ``not_larger`` takes
``scale = Min(sizes[i] / in_size[d])``, ``not_smaller`` the Max, and each resized axis gets
``round_int(scale * in_size[d])``, "rounding halfway cases up". Sizes on small dims rarely make that product a half
exactly; here one axis's size is moved so that its ratio governs and another axis's exact product is ``k + 1/2``
(a float32 product just below the half preferred: then a float32 ``roundf`` gives ``k``, the spec ``k + 1``), the
other sizes set so the governing axis stays the Min (Max), and a reader whose policy is ``stretch`` (the default,
which ignores the ratio) gets ``not_larger``. Annotations as for ``value-floor-edge``.
"""

from __future__ import annotations

import functools
import math
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import onnx

KIND = "value-floor-edge"
#: The sizes kind (module docs).
TIE = "value-round-tie"
KINDS = (KIND, TIE)
#: The op types whose ``scales`` input the kind changes (Operators.md Resize 10+, Upsample-9).
READERS = frozenset({"Resize", "Upsample"})
#: How far from ``round(d * scale)`` the search for ``k`` goes.
SPAN = 8


def is_kind(k: str) -> bool:
    """Whether variation kind ``k`` (no prefix) is this module's."""
    return k in KINDS


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


def _half(s: int, dj: int, di: int) -> tuple[bool, bool]:
    """Whether ``s / dj * di`` is exactly a half (above 1), and whether its float32 product lies below it."""
    import numpy as np

    x = Fraction(s, dj) * di
    if x.denominator != 2 or x <= 1:
        return False, False
    return True, float(np.float32(np.float32(s) / np.float32(dj)) * np.float32(di)) < x


@functools.cache
def _below_dims() -> tuple[int, int]:
    """The smallest ``(dj, di)`` (by sum, dims up to 40) with a size ``s`` whose tie ``s / dj * di`` a float32
    product puts below the half: the dims :func:`_tied` moves a graph input's resized axes to."""
    pairs = (
        (dj + di, dj, di)
        for dj in range(2, 41)
        for di in range(2, 41)
        if any(_half(s, dj, di) == (True, True) for s in range(1, 3 * dj + 1))
    )
    _, dj, di = min(pairs)
    return dj, di


def tie(dims: tuple[int, ...], sizes: list[int], policy: str) -> tuple[list[int], bool] | None:
    """``sizes`` moved so that, under ``policy`` (``not_larger`` or ``not_smaller``), the governing ratio
    ``sizes[j] / dims[j]`` makes another axis's exact ``scale * dims[i]`` a half (module docs), and whether a
    float32 product lies below that half; None (fewer than two axes, no such size up to ``3 * dims[j]`` or
    :data:`SPAN` past the current one). The tie below a half is preferred, then the nearest size."""
    if len(dims) < 2 or any(d < 1 for d in dims):
        return None
    found: list[tuple[bool, int, list[int]]] = []
    for j, dj in enumerate(dims):
        for s in range(1, max(sizes[j] + SPAN, 3 * dj) + 1):
            marks = [_half(s, dj, di) for i, di in enumerate(dims) if i != j]
            if not any(h for h, _b in marks):
                continue
            scale = Fraction(s, dj)
            new = [math.ceil(scale * d) if policy == "not_larger" else math.floor(scale * d) for d in dims]
            new[j] = s
            if min(new) < 1:  # a zero size is another question (an empty output)
                continue
            found.append((not any(b for _h, b in marks), abs(s - sizes[j]), new))
    if not found:
        return None
    best = min(found, key=lambda f: f[:2])
    return best[2], not best[0]


def _policy(node: onnx.NodeProto) -> str:
    return next((a.s.decode() for a in node.attribute if a.name == "keep_aspect_ratio_policy"), "stretch")


def _movable(model, reads) -> str | None:
    """The graph input every reader takes as its data input (input 0), when it is one no initializer shadows."""
    xs = {n.input[0] for n, _ in reads}
    inits = {i.name for i in model.graph.initializer}
    x = xs.pop() if len(xs) == 1 else None
    return x if x in {i.name for i in model.graph.input} and x not in inits else None


def _axes(node: onnx.NodeProto, rank: int) -> list[int]:
    axes = next((list(a.ints) for a in node.attribute if a.name == "axes"), list(range(rank)))
    return [a % rank for a in axes]


def _tied(model, name: str, arr: np.ndarray, shapes: dict[str, Any], readers) -> np.ndarray | None:
    import numpy as np

    from passcheck.mutations._base import opset

    reads = readers.get(name, [])
    if arr.dtype != np.int64 or arr.ndim != 1 or arr.size < 2 or not reads or opset(model) < 18:
        return None
    if any(n.op_type != "Resize" or n.domain not in ("", "ai.onnx") or i != 3 for n, i in reads):
        return None
    all_dims = {_dims(n, shapes, arr.size) for n, _ in reads}
    policies = {"not_larger" if _policy(n) == "stretch" else _policy(n) for n, _ in reads}
    if len(all_dims) != 1 or None in all_dims or len(policies) != 1:
        return None
    (dims,), (policy,) = all_dims, policies
    if None in dims:
        return None
    here = tie(dims, arr.tolist(), policy)
    if (here is None or not here[1]) and _movable(model, reads):
        there = tie((*_below_dims(), *dims[2:]), arr.tolist(), policy)
        here = there if there is not None and there[1] else here
    if here is None or (here[0] == arr.tolist() and all(_policy(n) != "stretch" for n, _ in reads)):
        return None  # no tie, or already at one under a ratio policy: the neighbour would be the base
    return np.array(here[0], dtype=np.int64)


def settle(model: onnx.ModelProto, name: str, k: str) -> None:
    """After kind ``k`` changed constant ``name``: for :data:`TIE`, each reader whose policy is ``stretch`` (stated
    or by default) set to ``not_larger``, and where the new sizes make no tie on the data input's dims, that graph
    input's first two resized dims set to :func:`_below_dims` (module docs). ``model`` is changed in place."""
    import onnx.numpy_helper
    from onnx import helper

    from passcheck.hunt.graph_values import readers as _readers

    if k != TIE:
        return
    reads = _readers(model).get(name, [])
    sizes = next((onnx.numpy_helper.to_array(i).tolist() for i in model.graph.initializer if i.name == name), None)
    x = _movable(model, reads)
    vi = next((i for i in model.graph.input if i.name == x), None)
    if sizes is not None and vi is not None and vi.type.tensor_type.HasField("shape"):
        shape = vi.type.tensor_type.shape
        axes = _axes(reads[0][0], len(shape.dim))[:2]
        dims = [shape.dim[a].dim_value if shape.dim[a].HasField("dim_value") else 0 for a in axes]
        if not any(_half(sizes[j], dims[j], dims[1 - j])[0] for j in (0, 1) if min(dims) > 0):
            for a, d in zip(axes, _below_dims(), strict=True):
                shape.dim[a].Clear()
                shape.dim[a].dim_value = d
    for node, _i in reads:
        if _policy(node) == "stretch":
            kept = [a for a in node.attribute if a.name != "keep_aspect_ratio_policy"]
            del node.attribute[:]
            node.attribute.extend([*kept, helper.make_attribute("keep_aspect_ratio_policy", "not_larger")])


def changed(
    model: onnx.ModelProto, name: str, arr: np.ndarray, shapes: dict[str, Any], readers, k: str = KIND
) -> np.ndarray | None:
    """``arr`` (constant ``name`` of ``model``) changed as kind ``k`` says: each eligible scale at its floor edge, or
    the sizes at a rounding tie (module docs); None when it is no such scales / sizes vector of such readers or no
    axis has an edge / tie. ``shapes``: value → TypeProto; ``readers``: value → [(node, input index)]."""
    import numpy as np

    if k == TIE:
        return _tied(model, name, arr, shapes, readers)

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
        for k in KINDS:
            if changed(model, name, arr, shapes, readers, k) is not None:
                yield k, name


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
