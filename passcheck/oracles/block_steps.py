"""The rounding bound of onnxruntime's block-quantized weight ops (ContribOperators.md ``com.microsoft``
MatMulNBits, GatherBlockQuantized), for :mod:`passcheck.oracles.quant_steps`.

MatMulNBits computes ``Y = A · dequantize(B) (+ bias)`` where ``dequantize`` of element ``k`` of column ``n`` is
``(q - zp) · scale`` of its block (``block_size`` elements along K): ``B`` uint8 ``[N, k_blocks, blob]`` (``bits``
per element), ``scales`` ``[N · k_blocks]`` (or ``[N, k_blocks]``), ``zero_points`` uint8 packed like ``B`` or
absent (then ``2^(bits-1)``: a symmetric range). GatherBlockQuantized selects rows of such a table (``data``, its
``scales``, ``zero_points``; the same rule per block along ``quantize_axis``). The weights are constants the pass
rounded ahead of time; the bound on how far one weight moved:

- with zero points (asymmetric): the block's range ``[min(0, lo), max(0, hi)]`` is cut in ``2^bits - 1`` steps and
  the zero point rounded to an integer, so a weight lies within half a step of the grid once clamped to
  ``[0, 2^bits - 1]``: ``share`` of the block's scale;
- without (symmetric: ``q`` in ``[-2^(bits-1), 2^(bits-1) - 1]``, the scale set by the block's largest magnitude at
  ``-2^(bits-1)``): a weight of the other sign at that magnitude is clamped one more half step, so twice ``share``.

``share`` of the *largest* scale bounds every block; ``K`` (MatMulNBits' attribute) products summed:
``a = K (a_A m_B + m_A a_B + a_A a_B)``, ``m = K m_A m_B`` with ``m_B = (2^bits - 1) · max|scale|`` (``|q - zp|``
never exceeds the integer range). Zero points of another type than uint8 (HQQ's float zero points: not a rounding
to the nearest step) and a scale that is not a constant give None (unknown)."""

from __future__ import annotations

from typing import Any

import numpy as np

#: The ops this module bounds (all in the ``com.microsoft`` domain).
OPS = frozenset({"MatMulNBits", "GatherBlockQuantized"})


def _attr(n: Any, name: str, default: int) -> int:
    return next((a.i for a in n.attribute if a.name == name), default)


def weight_bound(n: Any, values: dict[str, np.ndarray], share: float, weights: bool) -> tuple[float, float] | None:
    """(bound on how far one weight of ``n`` moved, bound on a weight's magnitude) (module docs), or None when
    the scales are not constants or the zero points are not uint8 codes."""
    ins = list(n.input)
    scale_at, zp_at = (2, 3)
    scales = values.get(ins[scale_at]) if len(ins) > scale_at and ins[scale_at] else None
    if scales is None or scales.size == 0:
        return None
    step = float(np.max(np.abs(scales.astype(np.float64))))
    if not np.isfinite(step):
        return None
    has_zp = len(ins) > zp_at and bool(ins[zp_at])
    if has_zp:
        zp = values.get(ins[zp_at])
        if zp is None or zp.dtype != np.uint8 and zp.dtype.name not in ("uint4", "int4"):
            return None
    bits = _attr(n, "bits", 4)
    moved = (share if has_zp else 2 * share) * step if weights else 0.0
    return moved, (2**bits - 1) * step


def bound(n: Any, values, err, mag, share: float, weights: bool) -> tuple[float | None, float | None]:
    """``(a, m)`` of the output of a node of :data:`OPS` (module docs); (None, None) where unknown."""
    w = weight_bound(n, values, share, weights)
    if w is None:
        return None, None
    a_w, m_w = w
    if n.op_type == "GatherBlockQuantized":  # selects weights: each output element is one dequantized weight
        return a_w, m_w
    ins = list(n.input)
    k = float(_attr(n, "K", 0))
    a1, m1 = err.get(ins[0]), mag.get(ins[0])
    if a1 is None or k <= 0 or (a_w and m1 is None):
        return None, None
    a = k * ((a1 * m_w if a1 else 0.0) + (m1 * a_w if a_w else 0.0) + a1 * a_w)
    m = None if m1 is None else k * m1 * m_w
    if len(ins) > 5 and ins[5]:  # bias
        ab, mb = err.get(ins[5]), mag.get(ins[5])
        if ab is None:
            return None, None
        a, m = a + ab, (None if m is None or mb is None else m + mb)
    return a, m
