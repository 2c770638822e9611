"""fusion-conv-add-act/*: a grouped Conv, a residual Add and a Relu, as ResNeXt-style exports emit.

onnxruntime's ConvAddActivationFusion (onnxruntime/core/optimizer/conv_add_act_fusion.cc; level 3,
``ort:all``, CPU EP only, registered after the NCHWc transformer in graph_transformer_utils.cc) folds
Conv (since-versions 1 and 11, with a bias input), an Add of a same-shape rank-4 tensor (7, 13, 14)
and an optional activation (Relu, Sigmoid, Tanh, LeakyRelu, constant Clip, HardSigmoid) into one
com.microsoft FusedConv with the Add's other operand as input Z. A dense Conv is taken by the NCHWc
transformer first on x86-64; a grouped Conv (group 2 of 4 channels) is not, so it reaches this fusion.

Equivalences the uncommon forms use (Operators.md): Add is commutative; Relu(x) = Clip-13(x, 0) with
no max; a Conv bias B equals an Add of B reshaped [1, C, 1, 1] (broadcast); Conv-22 only widens the
types of Conv-11 (bfloat16), so opset 22 computes the same.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.fusion import fusion_case

FAMILY = "fusion-conv-add-act"
R = rng(FAMILY)
W, B = R.standard_normal((4, 2, 3, 3)) * 0.5, R.standard_normal(4)
CONSTS = {"w": W, "b": B, "b4": B.reshape(1, 4, 1, 1), "zero": np.array(0.0)}
CONV = "c = Conv <pads = [1, 1, 1, 1], group = 2> (x, w, b)\n"
BODY = CONV + "a = Add(c, r)\ny = Relu(a)"

fusion_case(
    f"{FAMILY}/grouped-residual",
    transformer="ConvAddActivationFusion",
    level="all",
    doc="""Relu(Conv(x, w, b, group 2) + r) of x: [N, 4, 5, 5], r: [N, 4, 5, 5], w: [4, 2, 3, 3] (float).

Common: a ResNeXt / grouped-convolution block's last Conv, residual Add and Relu; at ort:all it
becomes one FusedConv (activation Relu, Z = r). Uncommon: Add(r, c); Relu as Clip(a, 0); the bias
as a separate broadcast Add (ConvAddFusion at ort:basic puts it back into the Conv); opset 22
(Operators.md Conv, Add, Clip; see the module doc).""",
    signature="(T[N,4,5,5] x, T[N,4,5,5] r) => (T[N,4,5,5] y)",
    consts=CONSTS,
    gone=("Add", "Relu"),
    forms={
        "common": (BODY, ""),
        "add-swapped": (BODY.replace("Add(c, r)", "Add(r, c)"), "Add(residual, Conv)"),
        "relu-as-clip": (BODY.replace("y = Relu(a)", "y = Clip(a, zero)"), "Relu as Clip(a, 0)", 13),
        "bias-add": (
            BODY.replace("(x, w, b)", "(x, w)").replace("a = Add(c, r)", "cb = Add(c, b4)\na = Add(cb, r)"),
            "the bias as Add of [1, 4, 1, 1]",
        ),
        "opset-22": (BODY, "opset 22 (Conv-22)", 22),
    },
    bindings=({"N": 1}, {"N": 2}),
)
