"""pattern-onnxscript-opt-in/*: bases for the opt-in rules of ``onnxscript.rewriter.rules.common`` that no case's
first form triggered (the coverage map lists them under ``onnxscript:rewrite-opt-in``; the map observes a case's
first form only): the Conv-affine fusions, the HardSigmoid / HardSwish fusions and the Expand-before-a-broadcasting-op
rules (onnxscript 0.7.2).

Each common form is what the rule's ``pattern`` and ``check`` accept, read from onnxscript's sources:

- ``_fuse_conv_affine.py``: ``ConvAffineFusion`` matches ``Conv(x, w, b) * scale + offset`` with ``w`` and ``b``
  constant and ``scale`` / ``offset`` one-element constants; ``AffineConvFusion`` matches ``Conv(x * scale +
  offset, w, b, pads=[0, 0, 0, 0])`` (the pads written) likewise.
- ``_fuse_hardswish.py``: ``HardSigmoidFusion`` matches ``Div(Clip(Add(x, 3), 0, 6), 6)``, ``HardSwishFusion``
  ``Div(Mul(Clip(Add(x, 3), 0, 6), x), 6)``, every constant a one-element value within ``rtol`` 1e-4 of it;
  ``HardSwishFusionFromHardSigmoid`` matches ``Mul(HardSigmoid(x), x)`` with ``alpha`` and ``beta`` read as
  written (1/6 and 0.5).
- ``_remove_expand_before_binary_op.py``: ``ExpandFirst_<op>`` / ``ExpandSecond_<op>`` match ``<op>(Expand(x, s),
  y)`` for 19 broadcasting ops, when each dim of a constant ``s`` is 1 or equals ``x``'s or ``y``'s dim at the same
  place from the right.

The constants are written the way the rule's docstring writes them (scalars, the target at the rank of the value it
shapes). The other spellings the spec allows come from the rewrites and neighbours (``operand-scalar-as-ones``,
``vary:shape-outrank``, ``vary:shape-target-outrank``, ``omitted-defaults`` …), not from forms written here. The
uncommon form is the computation the rule writes (or the op the fusion targets), run by onnxruntime alike.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.rules import onnxscript_case

FAMILY = "pattern-onnxscript-opt-in"
R = rng(FAMILY)
F32 = np.float32
CONSTS = {
    "w": R.standard_normal((4, 2, 3, 3)).astype(F32),
    "b": R.standard_normal(4).astype(F32),
    "scale": np.array(2.0, F32),
    "offset": np.array(0.5, F32),
    "three": np.array(3.0, F32),
    "zero": np.array(0.0, F32),
    "six": np.array(6.0, F32),
    "bias8": R.standard_normal(8).astype(F32),
    "s28": np.array([2, 8], np.int64),
}
# What the fusions write (``_fuse_conv_affine.py``'s rewrites): the weight scaled; the bias scaled and offset (after the
# Conv), or offset through the weight's sums (before it).
CONSTS["w_scaled"] = (CONSTS["w"] * CONSTS["scale"]).astype(F32)
CONSTS["b_after"] = (CONSTS["b"] * CONSTS["scale"] + CONSTS["offset"]).astype(F32)
CONSTS["b_before"] = (CONSTS["b"] + (CONSTS["w"] * CONSTS["offset"]).sum(axis=(1, 2, 3))).astype(F32)
CONV = "(float[N,2,5,5] x) => (float[N,4,3,3] y)"
ELEMENTWISE = "(float[N,8] x) => (float[N,8] y)"
PASS = "onnxscript:rewrite-opt-in"


def _case(name: str, rule: str, doc: str, forms: dict, sig: str, **kw) -> None:
    onnxscript_case(f"{FAMILY}/{name}", rule, doc, forms, sig, consts=CONSTS, pass_id=PASS, **kw)


_case(
    "conv-affine",
    "ConvAffineFusion",
    """Conv(x, w, b) * 2 + 0.5, x: [N, 2, 5, 5], w: [4, 2, 3, 3] (float).

ConvAffineFusion folds the scalar scale and offset into the weight and bias. Uncommon: the one Conv the fusion
writes, its weight w * 2 and bias b * 2 + 0.5 stored (Operators.md Conv: the output is linear in W and B).""",
    {
        "common": ("c = Conv(x, w, b)\nm = Mul(c, scale)\ny = Add(m, offset)", ""),
        "folded": ("y = Conv(x, w_scaled, b_after)", "the fused Conv"),
    },
    CONV,
)

_case(
    "affine-conv",
    "AffineConvFusion",
    """Conv(x * 2 + 0.5, w, b, pads = [0, 0, 0, 0]), x: [N, 2, 5, 5] (float).

AffineConvFusion folds an affine map in front of an unpadded Conv into its weight and bias; the rule's pattern
names the pads. Uncommon: the one Conv the fusion writes, its weight w * 2 and bias b + sum(w * 0.5) per output
channel stored (Operators.md Conv: with no padding every output reads only x, so the affine map moves into W, B).""",
    {
        "common": ("m = Mul(x, scale)\na = Add(m, offset)\ny = Conv <pads = [0, 0, 0, 0]> (a, w, b)", ""),
        "folded": ("y = Conv <pads = [0, 0, 0, 0]> (x, w_scaled, b_before)", "the fused Conv"),
    },
    CONV,
)

_case(
    "hardswish",
    "HardSwishFusion",
    """Clip(x + 3, 0, 6) * x / 6, x: [N, 8] (float): HardSwish written out.

HardSwishFusion matches the Add, Clip, Mul and Div of one-element constants 3, 0, 6, 6. Uncommon: HardSwish
(Operators.md HardSwish-14: x * max(0, min(1, x / 6 + 0.5))).""",
    {
        "common": ("a = Add(x, three)\nc = Clip(a, zero, six)\nm = Mul(c, x)\ny = Div(m, six)", ""),
        "op": ("y = HardSwish(x)", "the op"),
    },
    ELEMENTWISE,
    opset=18,
)

_case(
    "hardsigmoid",
    "HardSigmoidFusion",
    """Clip(x + 3, 0, 6) / 6, x: [N, 8] (float): HardSigmoid with alpha 1/6, beta 0.5 written out.

HardSigmoidFusion matches the Add, Clip and Div of one-element constants 3, 0, 6, 6. Uncommon: HardSigmoid with
those attributes (Operators.md HardSigmoid-6: max(0, min(1, alpha * x + beta))).""",
    {
        "common": ("a = Add(x, three)\nc = Clip(a, zero, six)\ny = Div(c, six)", ""),
        "op": ("y = HardSigmoid <alpha = 0.16666667, beta = 0.5> (x)", "the op"),
    },
    ELEMENTWISE,
)

_case(
    "expand-before-add",
    "ExpandSecond_Add",
    """x + Expand(bias, [2, 8]), x: [2, 8], bias: [8] (float).

ExpandSecond_Add drops an Expand whose target each operand's broadcasting already reaches. Uncommon: the implicit
broadcast (Broadcasting.md).""",
    {
        "common": ("e = Expand(bias8, s28)\ny = Add(x, e)", ""),
        "implicit": ("y = Add(x, bias8)", "no Expand"),
    },
    "(float[2,8] x) => (float[2,8] y)",
)
