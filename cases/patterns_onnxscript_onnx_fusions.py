"""pattern-onnxscript-onnx-fusions/*: bases for the fusions ``onnxscript.rewriter.onnx_fusions.fuse`` applies (pass
``onnxscript:onnx-fusions``; the pass acts at ai.onnx opset 23 only, so every form is at opset 23).

Each common form is what a rule's ``pattern`` and ``check`` accept, read from onnxscript 0.7.2's sources
(``rewriter/rules/fusion/``):

- ``_rms_normalization.py``: ``RmsNormFusion1`` matches ``Mul(Mul(x, Reciprocal(Sqrt(Add(ReduceMean(Pow(x, 2),
  [-1], keepdims=1, noop_with_empty_axes=0), eps)))), scale)`` (the ReduceMean attributes written, as the pattern
  names them), each of ``x`` and the normalized value optionally behind a Cast; ``RmsNormFusion2`` the same with
  ``Mul(scale, normalized)``. The check: ``eps`` a one-element float constant, ``x`` and ``scale`` of a float type,
  the computation in float or double.
- ``_rotary_embedding.py``: ``RotaryEmbedding23`` matches ``x * Unsqueeze(Cos(Concat(f, f)), [1]) +
  Concat(-x[..., h/2:], x[..., :h/2]) * Unsqueeze(Sin(Concat(f, f)), [1])`` (the halves as ``Slice`` with axes
  ``[3]`` and steps ``[1]``), for a 4-D ``x`` with a static head count and head size ``h``.

The constants are written the way the rules' tests write them (a scalar epsilon, a scale of the normalized
shape, a frequency table of shape ``[batch, sequence, h/2]``). The other spellings the spec allows come from the
rewrites and neighbours (``vary:shape-outrank``, ``operand-scalar-as-ones``, ``anonymous-input-dims`` …). The
uncommon form is the ONNX op the fusion writes (Operators.md RMSNormalization-23, RotaryEmbedding-23), run by
onnxruntime alike. The grouped-query attention fusion (``_gqa.py``) has no base yet.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.rules import onnxscript_case

FAMILY = "pattern-onnxscript-onnx-fusions"
R = rng(FAMILY)
F32 = np.float32
I64 = np.int64
CONSTS = {
    "two": np.array(2.0, F32),
    "last": np.array([-1], I64),
    "eps": np.array(1e-5, F32),
    "scale": (1 + 0.25 * R.standard_normal(8)).astype(F32),
    "scale16": (1 + 0.25 * R.standard_normal(8)).astype(np.float16),
    "zero": np.array([0], I64),
    "half": np.array([4], I64),
    "big": np.array([np.iinfo(I64).max], I64),
    "axis3": np.array([3], I64),
    "one": np.array([1], I64),
}
PASS = "onnxscript:onnx-fusions"
OPSET = 23
RMS = (
    "sq = Pow(x, two)\nms = ReduceMean <keepdims = 1, noop_with_empty_axes = 0> (sq, last)\nmse = Add(ms, eps)\n"
    "r = Sqrt(mse)\nrr = Reciprocal(r)\nn = Mul(x, rr)\n"
)


def _case(name: str, rule: str, doc: str, forms: dict, sig: str, **kw) -> None:
    onnxscript_case(f"{FAMILY}/{name}", rule, doc, forms, sig, consts=CONSTS, pass_id=PASS, opset=OPSET, **kw)


_case(
    "rms-norm",
    "RmsNormFusion1",
    """x / sqrt(mean(x^2, last axis) + 1e-5) * scale, x: [N, 3, 8], scale: [8] (float): RMS normalization
written out, scale on the right.

RmsNormFusion1 matches Pow, ReduceMean over [-1], Add, Sqrt, Reciprocal, Mul and the scaling Mul. Uncommon: the
op it writes (Operators.md RMSNormalization-23, axis -1, the computation in float).""",
    {
        "common": (RMS + "y = Mul(n, scale)", ""),
        "op": ("y = RMSNormalization <axis = -1, epsilon = 0.00001> (x, scale)", "the op"),
    },
    "(float[N,3,8] x) => (float[N,3,8] y)",
)

_case(
    "rms-norm-cast",
    "RmsNormFusion2",
    """RMS normalization of a float16 x computed in float: Cast to float, normalized, Cast back, scale on the left;
x: [N, 3, 8], scale: [8] (float16).

RmsNormFusion2 matches the pattern with both Casts and Mul(scale, normalized). Uncommon: RMSNormalization-23 with
stash_type 1 (float), the precision the Casts name (Operators.md RMSNormalization-23: ``stash_type`` is the
computation's precision).""",
    {
        "common": (
            "xf = Cast <to = 1> (x)\n"
            + RMS.replace("(x, two)", "(xf, two)").replace("Mul(x, rr)", "Mul(xf, rr)")
            + "nh = Cast <to = 10> (n)\ny = Mul(scale16, nh)",
            "",
        ),
        "op": ("y = RMSNormalization <axis = -1, epsilon = 0.00001, stash_type = 1> (x, scale16)", "the op"),
    },
    "(float16[N,3,8] x) => (float16[N,3,8] y)",
)

_case(
    "rotary",
    "RotaryEmbedding23",
    """x * cos(f) + rotate_half(x) * sin(f), x: [B, 2, S, 8] (two heads of size 8), f: [B, S, 4] (float): the
rotary embedding as Hugging Face writes it, the frequencies doubled by a Concat and unsqueezed at axis 1.

RotaryEmbedding23 matches the Concat, Cos, Sin, Unsqueeze, the two Slices of the halves, Neg, Concat, two Muls and
the Add. Uncommon: the op it writes (Operators.md RotaryEmbedding-23, not interleaved, cos and sin of f as the
caches, no position ids).""",
    {
        "common": (
            "ff = Concat <axis = -1> (f, f)\nc = Cos(ff)\ns = Sin(ff)\nc4 = Unsqueeze(c, one)\ns4 = Unsqueeze(s, one)\n"
            "xc = Mul(x, c4)\nx1 = Slice(x, zero, half, axis3, one)\nx2 = Slice(x, half, big, axis3, one)\n"
            "n2 = Neg(x2)\nrot = Concat <axis = -1> (n2, x1)\nrs = Mul(rot, s4)\ny = Add(xc, rs)",
            "",
        ),
        "op": ("c = Cos(f)\ns = Sin(f)\ny = RotaryEmbedding <interleaved = 0, num_heads = 2> (x, c, s)", "the op"),
    },
    "(float[B,2,S,8] x, float[B,S,4] f) => (float[B,2,S,8] y)",
    bindings=({"B": 1, "S": 3}, {"B": 2, "S": 5}),
)
