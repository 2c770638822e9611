"""fusion-conv/*: Conv followed by an activation, and Pads in front of Convs, spelled every valid way.

Operators.md Conv, Relu, Clip (opset 11+: ``min``/``max`` optional inputs, an omitted or ``""``
bound is unbounded; opset 6: ``min``/``max`` attributes), HardSigmoid (``max(0, min(1, alpha x +
beta))``, defaults alpha 0.2, beta 0.5), LeakyRelu (default alpha 0.01), Max, Pad (opset 11+:
``pads`` input, constant mode, ``constant_value`` defaults to 0). ``Relu(x) = Clip(x, 0) =
Max(x, 0)``; ``Clip(Relu(x), , 6) = Clip(x, 0, 6)``. onnxruntime fuses Conv+activation into
com.microsoft FusedConv (ConvActivationFusion), Relu+Clip into one Clip (FuseReluClip) and a
zero constant Pad into the Conv's pads (PadFusion); a public bug needed one Pad shared by two Convs.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.fusion import fusion_case

FAMILY = "fusion-conv"
R = rng(FAMILY)
CONSTS = {
    "w": R.standard_normal((3, 2, 3, 3)),
    "w2": R.standard_normal((3, 2, 3, 3)),
    "b": R.standard_normal(3),
    "w1d": R.standard_normal((3, 2, 3)),
    "zero": np.array(0.0),
    "six": np.array(6.0),
    "hs_alpha": np.array(0.2),
    "hs_beta": np.array(0.5),
    "one": np.array(1.0),
    "pads": np.array([0, 0, 1, 1, 0, 0, 1, 1], dtype=np.int64),
}
CONV = "c = Conv <pads = [1, 1, 1, 1]> (x, w, b)\n"
SIG = "(T[N,2,6,6] x) => (T[N,3,6,6] y)"
BINDINGS = ({"N": 1}, {"N": 2})


def _act(
    name: str, doc: str, forms, gone, transformer="ConvActivationFusion", level="extended", sig=SIG, conv=CONV, **kw
):
    fusion_case(
        f"{FAMILY}/{name}",
        transformer=transformer,
        level=level,
        signature=sig,
        consts=CONSTS,
        gone=gone,
        bindings=BINDINGS,
        doc=doc,
        forms={
            k: (conv + body, *rest) if isinstance(body, str) else (body, *rest) for k, (body, *rest) in forms.items()
        },
        tags=("conv",),
        **kw,
    )


_act(
    "conv-relu",
    """Conv 3x3 (pads 1, bias) of x: [N, 2, 6, 6], then Relu (float).

Uncommon: Relu written Clip(c, 0) with max omitted, Clip(c, 0, "") with max written as the empty
name, and Max(c, 0) (Operators.md Clip/Max, IR.md "Optional inputs").""",
    {
        "common": ("y = Relu(c)", ""),
        "clip-min-only": ("y = Clip(c, zero)", "Clip(c, 0), max omitted"),
        "clip-max-empty": ('y = Clip(c, zero, "")', 'Clip(c, 0, ""), max written as the empty name'),
        "max-zero": ("y = Max(c, zero)", "Max(c, 0)"),
    },
    gone=("Relu",),
)

_act(
    "conv-clip",
    """Conv 3x3 of x: [N, 2, 6, 6], then Clip to [0, 6] (ReLU6, MobileNet) (float).

Uncommon: the bounds from Constant nodes, Relu then Clip with only a max (FuseReluClip merges them
first), and the opset-10 Clip with min/max attributes (Operators.md Clip-6).""",
    {
        "common": ("y = Clip(c, zero, six)", ""),
        "constant-nodes": (
            "lo = Constant <value = float {0.0}> ()\nhi = Constant <value = float {6.0}> ()\ny = Clip(c, lo, hi)",
            "min and max from Constant nodes",
        ),
        "relu-then-clip": ('r = Relu(c)\ny = Clip(r, "", six)', 'Relu then Clip(r, "", 6)'),
        "clip-attributes": ("y = Clip <min = 0.0, max = 6.0> (c)", "opset 10: Clip's bounds as attributes", 10),
    },
    gone=("Clip",),
)

_act(
    "conv-hardsigmoid",
    """Conv 3x3 of x: [N, 2, 6, 6], then HardSigmoid with default alpha 0.2, beta 0.5 (float).

Uncommon: the defaults written out, and the decomposed Clip(0.2 c + 0.5, 0, 1) (Operators.md
HardSigmoid).""",
    {
        "common": ("y = HardSigmoid(c)", ""),
        "explicit-defaults": ("y = HardSigmoid <alpha = 0.2, beta = 0.5> (c)", "alpha 0.2 and beta 0.5 written"),
        "decomposed": (
            "m = Mul(c, hs_alpha)\na = Add(m, hs_beta)\ny = Clip(a, zero, one)",
            "Clip(Add(Mul(c, 0.2), 0.5), 0, 1)",
        ),
    },
    gone=("HardSigmoid",),
)

_act(
    "conv-leakyrelu",
    """Conv 3x3 of x: [N, 2, 6, 6], then LeakyRelu with the default alpha 0.01 (float).

Uncommon: alpha = 0.01 written (Operators.md LeakyRelu).""",
    {
        "common": ("y = LeakyRelu(c)", ""),
        "explicit-alpha": ("y = LeakyRelu <alpha = 0.01> (c)", "alpha 0.01 written"),
    },
    gone=("LeakyRelu",),
)

_act(
    "conv1d-relu",
    """Conv1d (kernel 3, pads 1) of x: [N, 2, 8], then Relu (float).

Uncommon: Relu written Clip(c, 0) (Operators.md Clip).""",
    {
        "common": ("y = Relu(c)", ""),
        "clip-min-only": ("y = Clip(c, zero)", "Clip(c, 0), max omitted"),
    },
    gone=("Relu",),
    sig="(T[N,2,8] x) => (T[N,3,8] y)",
    conv="c = Conv <pads = [1, 1]> (x, w1d, b)\n",
)

_act(
    "pad-shared",
    """Two Convs 3x3 of the same zero-padded x: [N, 2, 6, 6], summed (float).

Common: each Conv has its own Pad (a per-branch export). Uncommon: one Pad shared by both Convs
(a node shared by two consumers), the padding as Conv's pads attribute, and the Pad's
constant_value 0 written (Operators.md Pad-13+: constant mode, constant_value defaults to 0).""",
    {
        "common": (
            "p1 = Pad(x, pads)\np2 = Pad(x, pads)\nc1 = Conv(p1, w, b)\nc2 = Conv(p2, w2, b)\ny = Add(c1, c2)",
            "",
        ),
        "shared": (
            "p = Pad(x, pads)\nc1 = Conv(p, w, b)\nc2 = Conv(p, w2, b)\ny = Add(c1, c2)",
            "one Pad feeding both Convs",
        ),
        "conv-pads": (
            "c1 = Conv <pads = [1, 1, 1, 1]> (x, w, b)\nc2 = Conv <pads = [1, 1, 1, 1]> (x, w2, b)\ny = Add(c1, c2)",
            "no Pad: the padding in Conv's pads attribute",
        ),
        "value-explicit": (
            "p = Pad(x, pads, zero)\nc1 = Conv(p, w, b)\nc2 = Conv(p, w2, b)\ny = Add(c1, c2)",
            "shared Pad with constant_value 0 written",
        ),
    },
    gone=("Pad",),
    transformer="Pad_Fusion",
    level="basic",
    conv="",
)
