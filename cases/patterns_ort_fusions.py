"""pattern-ort-fusion/*: multi-node patterns of onnxruntime graph transformers no other case reaches.

Each case is built from what the transformer's own source matches (onnxruntime
core/optimizer/*.cc: op types and since_versions, which inputs must be constant, required constant
values and shapes), then respelled the ways the spec allows: operand order of commutative ops,
node order in the graph (any topological order is valid, IR.md "Graphs"), optional inputs and
attributes written at their defaults, constants as initializers or Constant nodes.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.fusion import fusion_case

FAMILY = "pattern-ort-fusion"
R = rng(FAMILY)
I64 = np.int64
CONSTS = {
    "shape034": np.array([0, 3, 4], dtype=I64),
    "s0": np.array([0], dtype=I64),
    "e1": np.array([1], dtype=I64),
    "ax1": np.array([1], dtype=I64),
    "st1": np.array([1], dtype=I64),
    "i1": np.array([1], dtype=I64),
    "i2": np.array([2], dtype=I64),
    "im1": np.array([-1], dtype=I64),
    "im2": np.array([-2], dtype=I64),
    "k0": np.array(0, dtype=I64),
    "k1": np.array(1, dtype=I64),
    "ax0": np.array([0], dtype=I64),
    "c24": np.array([2, 4], dtype=I64),
    "w": R.standard_normal((8, 8)),
    "b": R.standard_normal(8),
    "gamma": R.uniform(0.5, 1.5, 8),
    "beta": R.standard_normal(8),
}
BIND = ({"N": 1}, {"N": 3})


def _case(name: str, transformer: str, doc: str, forms: dict, sig: str, level: str = "extended", **kw) -> None:
    fusion_case(
        f"{FAMILY}/{name}",
        transformer=transformer,
        level=level,
        signature=sig,
        consts=CONSTS,
        bindings=kw.pop("bindings", BIND),
        doc=doc,
        forms=forms,
        tags=("pattern",),
        **kw,
    )


RESHAPE = "r = Reshape(x, shape034)\n"
_case(
    "gather-slice-split",
    "GatherSliceToSplitFusion",
    """x: [N, 12] reshaped to [N, 3, 4], cut into its rows by one Slice and two Gathers, concatenated back swapped.

GatherSliceToSplitFusion replaces a Reshape's three consumers (one Slice with constant starts,
ends, axes and steps 1, two Gathers with constant int64 [1] indices on the same axis) with one
Split (multi-query attention's q, k, v). Output: Concat(g2, s, g1) on axis 1. Uncommon: the two
Gathers listed in the other node order (any topological order is valid), the Gather indices
written negative (Operators.md Gather: negative indices count from the end).""",
    {
        "common": (
            RESHAPE + "s = Slice(r, s0, e1, ax1, st1)\ng1 = Gather <axis = 1> (r, i1)\n"
            "g2 = Gather <axis = 1> (r, i2)\n"
            "y = Concat <axis = 1> (g2, s, g1)",
            "",
        ),
        "gathers-reordered": (
            RESHAPE + "s = Slice(r, s0, e1, ax1, st1)\ng2 = Gather <axis = 1> (r, i2)\n"
            "g1 = Gather <axis = 1> (r, i1)\n"
            "y = Concat <axis = 1> (g2, s, g1)",
            "the two Gathers listed in the other order",
        ),
        "negative-indices": (
            RESHAPE + "s = Slice(r, s0, e1, ax1, st1)\ng1 = Gather <axis = 1> (r, im2)\n"
            "g2 = Gather <axis = 1> (r, im1)\n"
            "y = Concat <axis = 1> (g2, s, g1)",
            "Gather indices -2 and -1",
        ),
    },
    sig="(T[N,12] x) => (T[N,3,4] y)",
)

_case(
    "range-gather",
    "GatherToSliceFusion",
    """Gather of x: [N, 8] at Range(0, N, 1) along axis 0 (N read from Shape), then Neg (float).

GatherToSliceFusion replaces Range -> Gather (Range's output as Gather's indices) with a Slice.
Uncommon: Gather's axis 0 written, N read by Slice instead of Gather (Operators.md Range, Gather).""",
    {
        "common": ("sh = Shape(x)\nn = Gather(sh, k0)\nrg = Range(k0, n, k1)\ng = Gather(x, rg)\ny = Neg(g)", ""),
        "axis-explicit": (
            "sh = Shape(x)\nn = Gather(sh, k0)\nrg = Range(k0, n, k1)\ng = Gather <axis = 0> (x, rg)\ny = Neg(g)",
            "axis 0 written",
        ),
        "shape-start-end": (
            "sh = Shape <start = 0, end = 1> (x)\nn = Squeeze(sh, ax0)\nrg = Range(k0, n, k1)\n"
            "g = Gather(x, rg)\ny = Neg(g)",
            "N as Squeeze(Shape<start 0, end 1>(x))",
            15,
        ),
    },
    sig="(T[N,8] x) => (T[N,8] y)",
)

SHAPE_HEAD = (
    "sh = Shape(x)\nd0 = Gather(sh, k0)\nd1 = Gather(sh, k1)\nu0 = Unsqueeze(d0, ax0)\nu1 = Unsqueeze(d1, ax0)\n"
)
_case(
    "reshape-from-shape",
    "ReshapeFusion",
    """Reshape of x: [N, 4, 8] to [N, 4, 2, 4], its target built from x's own Shape (float).

ReshapeFusion replaces a Reshape whose shape is Concat(Unsqueeze(Gather(Shape(x), i)), ...,
constants) with a constant shape using 0 (copy the dim) for the gathered entries. Uncommon: the
dims read by Slice of the Shape, the constants as a Constant(value_ints) node (Operators.md Reshape:
0 copies the input dim).""",
    {
        "common": (SHAPE_HEAD + "c = Concat <axis = 0> (u0, u1, c24)\nr = Reshape(x, c)\ny = Neg(r)", ""),
        "constant-node": (
            SHAPE_HEAD + "k = Constant <value_ints = [2, 4]> ()\nc = Concat <axis = 0> (u0, u1, k)\n"
            "r = Reshape(x, c)\ny = Neg(r)",
            "the trailing dims from Constant(value_ints)",
        ),
        "slice-of-shape": (
            "sh = Shape(x)\nd = Slice(sh, s0, i2)\nc = Concat <axis = 0> (d, c24)\nr = Reshape(x, c)\ny = Neg(r)",
            "the leading dims as Slice(Shape(x), 0, 2)",
        ),
    },
    sig="(T[N,4,8] x) => (T[N,4,2,4] y)",
    level="basic",
)

LN = "y = LayerNormalization <axis = -1, epsilon = 1e-05> (s, gamma, beta)"
_case(
    "bias-skip-layernorm",
    "BiasSkipLayerNormFusion",
    """LayerNorm((b + MatMul(x, w)) + skip) of x, skip: [N, 4, 8] (float).

SkipLayerNormFusion makes the two Adds and LayerNormalization one SkipLayerNormalization;
BiasSkipLayerNormFusion then folds the MatMul's bias Add into it. Common: torch.onnx's Linear,
Add(bias, MatMul). Uncommon: Add(m, b) (commutative), the skip added first, epsilon at its default
omitted (Operators.md LayerNormalization, Add).""",
    {
        "common": ("m = MatMul(x, w)\nmb = Add(b, m)\ns = Add(mb, skip)\n" + LN, ""),
        "bias-second": ("m = MatMul(x, w)\nmb = Add(m, b)\ns = Add(mb, skip)\n" + LN, "Add(m, b)"),
        "skip-first": ("m = MatMul(x, w)\nmb = Add(b, m)\ns = Add(skip, mb)\n" + LN, "Add(skip, b + m)"),
        "epsilon-default": (
            "m = MatMul(x, w)\nmb = Add(b, m)\ns = Add(mb, skip)\ny = LayerNormalization <axis = -1> (s, gamma, beta)",
            "epsilon omitted (default 1e-5)",
        ),
    },
    sig="(T[N,4,8] x, T[N,4,8] skip) => (T[N,4,8] y)",
    targets=("SkipLayerNormFusion",),
)

LE = "ai.onnx.ml.LabelEncoder"
LE1 = f"a = {LE} <keys_int64s = [0, 1, 2], values_int64s = [10, 11, 12], default_int64 = -1> (x)\n"
LE2 = f"y = {LE} <keys_int64s = [10, 11, 12, -1], values_int64s = [5, 6, 7, 8], default_int64 = 9> (a)"
_case(
    "label-encoder-chain",
    "LabelEncoderFusion",
    """Two chained ai.onnx.ml LabelEncoders (int64 -> int64 -> int64) of x: [N] (int64).

LabelEncoderFusion composes the two maps into one LabelEncoder (ai.onnx.ml opset 4 for the
second). Uncommon: the first map's keys listed in another order with their values (a map's key
order is free), the first encoder's default written at its default -1 value (Operators-ml.md
LabelEncoder-4; Operators.md covers the default domain only).""",
    {
        "common": (LE1 + LE2, ""),
        "keys-reordered": (
            f"a = {LE} <keys_int64s = [2, 0, 1], values_int64s = [12, 10, 11], default_int64 = -1> (x)\n" + LE2,
            "the first map's keys in another order",
        ),
        "default-omitted": (
            f"a = {LE} <keys_int64s = [0, 1, 2], values_int64s = [10, 11, 12]> (x)\n" + LE2,
            "default_int64 omitted (its default is -1)",
        ),
    },
    sig="(int64[N] x) => (int64[N] y)",
    level="basic",
    extra_opsets={"ai.onnx.ml": 4},
)

BIG = np.iinfo(np.int64).max
CONSTS.update(
    {
        "st00": np.array([0, 0], dtype=I64),
        "st10": np.array([1, 0], dtype=I64),
        "st01": np.array([0, 1], dtype=I64),
        "st11": np.array([1, 1], dtype=I64),
        "en": np.array([BIG, BIG], dtype=I64),
        "hw": np.array([2, 3], dtype=I64),
        "two2": np.array([2, 2], dtype=I64),
        "z1": np.array([0], dtype=I64),
        "o1": np.array([1], dtype=I64),
        "en1": np.array([BIG], dtype=I64),
        "h": np.array([2], dtype=I64),
        "wax": np.array([3], dtype=I64),
        "two1": np.array([2], dtype=I64),
    }
)
#: YOLOv5's Focus: x[..., ::2, ::2], x[..., 1::2, ::2], x[..., ::2, 1::2], x[..., 1::2, 1::2], concatenated on channels.
FOCUS = (
    "p0 = Slice(x, st00, en, hw, two2)\np1 = Slice(x, st10, en, hw, two2)\np2 = Slice(x, st01, en, hw, two2)\n"
    "p3 = Slice(x, st11, en, hw, two2)\nc4 = Concat <axis = 1> (p0, p1, p2, p3)\ny = Relu(c4)"
)
#: The same four phases, each as one Slice per spatial axis (height, then width); the height Slices are shared.
FOCUS_CHAIN = (
    "h0 = Slice(x, z1, en1, h, two1)\nh1 = Slice(x, o1, en1, h, two1)\np0 = Slice(h0, z1, en1, wax, two1)\n"
    "p1 = Slice(h1, z1, en1, wax, two1)\np2 = Slice(h0, o1, en1, wax, two1)\n"
    "p3 = Slice(h1, o1, en1, wax, two1)\n"
    "c4 = Concat <axis = 1> (p0, p1, p2, p3)\ny = Relu(c4)"
)
_case(
    "focus-space-to-depth",
    "SliceConcatToSpaceToDepthFusion",
    """YOLOv5's Focus layer of x: [N, 3, 8, 8]: four stride-2 Slices, Concat on channels, Relu (float).

SliceConcatToSpaceToDepthFusion replaces four Slices of one input (step 2 on H and W, offsets
{0, 1} x {0, 1}, ends to the dim) concatenated on axis 1 with SpaceToDepth (blocksize 2) and, for
a non-canonical phase order, a Gather of the channels. Uncommon: each phase as a chain of one
Slice per axis with the height Slices shared, the ends written as the dim_value 8 (Operators.md
Slice-13, Concat).""",
    {
        "common": (FOCUS, ""),
        "per-axis-chain": (FOCUS_CHAIN, "one Slice per spatial axis, the height Slices shared by two branches"),
        "ends-at-dim": (FOCUS.replace(", en, ", ", en8, "), "ends written as the dim_value 8"),
    },
    sig="(T[N,3,8,8] x) => (T[N,12,4,4] y)",
    level="basic",
)
CONSTS["en8"] = np.array([8, 8], dtype=I64)

CONSTS.update({"cw": R.standard_normal((3, 2, 3, 3)), "cb": R.standard_normal(3)})
CONV = "c = Conv <pads = [1, 1, 1, 1]> (x, cw, cb)\n"
_case(
    "conv-add-relu",
    "ConvAddActivationFusion",
    """Relu(Conv 3x3 (pads 1, bias) of x: [N, 2, 6, 6] plus a residual r: [N, 3, 6, 6]) (float).

ConvAddActivationFusion (ort:all, CPU) fuses a biased 4-D Conv -> Add of a tensor of the Conv's
output shape -> activation into com.microsoft FusedConv with the Add's other operand as its sum
input; where the platform has NCHWc (x86-64), NchwcTransformer runs first and takes the Conv.
Uncommon: Add(r, c)
(commutative), Relu written Clip(a, 0) (Operators.md Conv, Add, Clip).""",
    {
        "common": (CONV + "a = Add(c, r)\ny = Relu(a)", ""),
        "residual-first": (CONV + "a = Add(r, c)\ny = Relu(a)", "Add(r, conv)"),
        "clip-min": (CONV + "a = Add(c, r)\ny = Clip(a, zero)", "Relu written Clip(a, 0)"),
    },
    sig="(T[N,2,6,6] x, T[N,3,6,6] r) => (T[N,3,6,6] y)",
    level="all",
    bindings=({"N": 1}, {"N": 2}),
)
CONSTS["zero"] = np.array(0.0)
