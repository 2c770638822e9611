"""pattern-onnxscript/*: one base per onnxscript default rewrite rule no other case reaches.

Each case is the pattern the rule's own ``pattern`` and ``check`` accept (onnxscript
rewriter/rules/common/*.py: op types, attributes, which values must be constant, the shapes the
check needs), then respelled the ways the spec allows. The rule is named by the coverage
catalogue's name (:mod:`passcheck.coverage.onnxscript`: the rule's name, or its target pattern for
an unnamed rule); ``onnxscript.optimizer.optimize`` and ``onnxscript.rewriter.rewrite`` apply the
default rule set.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.rules import onnxscript_case

FAMILY = "pattern-onnxscript"
R = rng(FAMILY)
I64 = np.int64
CONSTS = {
    "one": np.array(1.0, np.float32),
    "zero": np.array(0.0, np.float32),
    "lo": np.array(-0.5, np.float32),
    "hi": np.array(0.5, np.float32),
    "lo2": np.array(-0.25, np.float32),
    "hi2": np.array(0.75, np.float32),
    "zero_ratio": np.array(0.0, np.float32),
    "train_off": np.array(False),
    "s48": np.array([4, 2], I64),
    "s8": np.array([8], I64),
    "s24": np.array([2, 4], I64),
    "ax0": np.array([0], I64),
    "ax1": np.array([1], I64),
    "ax01": np.array([0, 1], I64),
    "m1": np.array([-1], I64),
    "b0": np.array([0], I64),
    "e4": np.array([4], I64),
    "b4": np.array([4], I64),
    "e8": np.array([8], I64),
    "axl": np.array([-1], I64),
    "shape28": np.array([2, 8], I64),
    "gw": R.standard_normal((8, 4)).astype(np.float32),
    "gb": R.standard_normal(4).astype(np.float32),
    "z4": np.zeros(4, np.float32),
    "z3": np.zeros(3, np.float32),
    "bn_s": R.uniform(0.5, 1.5, 4).astype(np.float32),
    "bn_b": R.standard_normal(4).astype(np.float32),
    "bn_m": R.standard_normal(4).astype(np.float32),
    "bn_v": R.uniform(0.5, 1.5, 4).astype(np.float32),
    "cw": R.standard_normal((3, 2, 3, 3)).astype(np.float32),
    "tw": R.standard_normal((2, 3, 3, 3)).astype(np.float32),
    "bn3_s": R.uniform(0.5, 1.5, 3).astype(np.float32),
    "bn3_b": R.standard_normal(3).astype(np.float32),
    "bn3_m": R.standard_normal(3).astype(np.float32),
    "bn3_v": R.uniform(0.5, 1.5, 3).astype(np.float32),
}


def _case(name: str, rule: str, doc: str, forms: dict, sig: str, **kw) -> None:
    onnxscript_case(f"{FAMILY}/{name}", rule, doc, forms, sig, consts=CONSTS, **kw)


SIG = "(float[N,8] x) => (float[N,8] y)"
_case(
    "mul-one-first",
    "Mul(1,x)",
    """1 * r, r = Relu(x): [N, 8], then Neg (float).

The no-op rule set removes Mul by the constant 1 with the 1 first (the rule's commuted form).
Uncommon: Mul(r, 1), Div(r, 1) (Operators.md Mul, Div).""",
    {
        "common": ("r = Relu(x)\ns = Mul(one, r)\ny = Neg(s)", ""),
        "one-second": ("r = Relu(x)\ns = Mul(r, one)\ny = Neg(s)", "Mul(r, 1)"),
        "div-one": ("r = Relu(x)\ns = Div(r, one)\ny = Neg(s)", "Div(r, 1)"),
    },
    SIG,
)

_case(
    "dropout-ratio-zero",
    "Dropout(x,ratio=0.0)",
    """Dropout with ratio 0 of r = Relu(x): [N, 8], then Neg (float).

The no-op rules drop a Dropout whose ratio attribute is 0 (opset 10: ratio is an attribute).
Uncommon: the opset-13 Dropout with ratio 0 as an input, and training_mode false written
(Operators.md Dropout-10/13: at ratio 0 or in inference the output equals the input).""",
    {
        "common": ("r = Relu(x)\ns = Dropout <ratio = 0.0> (r)\ny = Neg(s)", "", 10),
        "ratio-input": ("r = Relu(x)\ns = Dropout(r, zero_ratio)\ny = Neg(s)", "opset 13: ratio 0 as an input", 13),
        "training-mode-false": (
            "r = Relu(x)\ns = Dropout(r, zero_ratio, train_off)\ny = Neg(s)",
            "training_mode false written",
            13,
        ),
    },
    SIG,
)

_case(
    "cast-constant-of-shape",
    "ConstantOfShape(shape,value=scalar);Cast(_,to=dtype)",
    """x: [N, 8] times Cast(ConstantOfShape(Shape(x), value 2.0 double), float) (float).

The rule writes the Cast's dtype into ConstantOfShape's value. Uncommon: the value as float
already and no Cast (Operators.md ConstantOfShape, Cast).""",
    {
        "common": (
            "sh = Shape(x)\nc = ConstantOfShape <value = double[1] {2.0}> (sh)\nk = Cast <to = 1> (c)\ny = Mul(x, k)",
            "",
        ),
        "no-cast": (
            "sh = Shape(x)\nk = ConstantOfShape <value = float[1] {2.0}> (sh)\ny = Mul(x, k)",
            "value 2.0 float, no Cast",
        ),
    },
    SIG,
)

_case(
    "cast-constant-of-shape-zero",
    "ConstantOfShape(shape);Cast(_,to=dtype)",
    """x: [N, 8] plus Cast(ConstantOfShape(Shape(x)), float): zeros (float).

ConstantOfShape's value defaults to float 0; the rule writes the Cast's dtype into it.
Uncommon: the value 0 written as float, no Cast (Operators.md ConstantOfShape: default value 0).""",
    {
        "common": ("sh = Shape(x)\nc = ConstantOfShape(sh)\nk = Cast <to = 1> (c)\ny = Add(x, k)", ""),
        "value-written": (
            "sh = Shape(x)\nk = ConstantOfShape <value = float[1] {0.0}> (sh)\ny = Add(x, k)",
            "value float 0 written",
        ),
    },
    SIG,
)

_case(
    "min-min",
    "FuseSuccessiveMin",
    """Min(Min(x, 0.5), 0.75) of x: [N, 8] (float).

FuseSuccessiveMin folds two Mins with constant scalar operands into one Min of the smaller.
Uncommon: the operands swapped (Min is commutative), one Min of both constants (Operators.md Min).""",
    {
        "common": ("a = Min(x, hi)\ny = Min(a, hi2)", ""),
        "swapped": ("a = Min(hi, x)\ny = Min(hi2, a)", "Min(0.5, x), Min(0.75, a)"),
        "variadic": ("y = Min(x, hi, hi2)", "one Min with three inputs"),
    },
    SIG,
)

_case(
    "max-max",
    "FuseSuccessiveMax",
    """Max(Max(x, -0.5), -0.25) of x: [N, 8] (float).

FuseSuccessiveMax folds two Maxes with constant scalar operands. Uncommon: the operands swapped,
one variadic Max (Operators.md Max).""",
    {
        "common": ("a = Max(x, lo)\ny = Max(a, lo2)", ""),
        "swapped": ("a = Max(lo, x)\ny = Max(lo2, a)", "Max(-0.5, x), Max(-0.25, a)"),
        "variadic": ("y = Max(x, lo, lo2)", "one Max with three inputs"),
    },
    SIG,
)

_case(
    "min-max-clip",
    "FuseMaxMinToClip",
    """Min(Max(x, -0.5), 0.5) of x: [N, 8] (float): a clip to [-0.5, 0.5].

FuseMaxMinToClip (named for the order it reads outside-in) turns Min(Max(x, lo), hi) into Clip. Uncommon: Clip written
(Operators.md Clip-13, Min, Max).""",
    {
        "common": ("a = Max(x, lo)\ny = Min(a, hi)", ""),
        "clip": ("y = Clip(x, lo, hi)", "Clip(x, -0.5, 0.5)"),
    },
    SIG,
)

_case(
    "max-min-clip",
    "FuseMinMaxToClip",
    """Max(Min(x, 0.5), -0.5) of x: [N, 8] (float): a clip to [-0.5, 0.5].

FuseMinMaxToClip turns Max(Min(x, hi), lo) with constant scalar bounds into Clip. Uncommon: Min applied
second (the same clip for lo <= hi), Clip written (Operators.md Clip-13).""",
    {
        "common": ("a = Min(x, hi)\ny = Max(a, lo)", ""),
        "clip": ("y = Clip(x, lo, hi)", "Clip(x, -0.5, 0.5)"),
    },
    SIG,
)

_case(
    "relu-relu",
    "FuseSuccessiveRelu",
    """Relu(Relu(x)) of x: [N, 8] (float).

Uncommon: one Relu (Relu is idempotent), Relu of Max(x, 0) (Operators.md Relu, Max).""",
    {
        "common": ("a = Relu(x)\ny = Relu(a)", ""),
        "single": ("y = Relu(x)", "one Relu"),
        "max-then-relu": ("a = Max(x, zero)\ny = Relu(a)", "Max(x, 0) then Relu"),
    },
    SIG,
)

_case(
    "clip-relu",
    "FuseSuccessiveReluClip",
    """Relu(Clip(x, -0.5, 0.5)) of x: [N, 8] (float): a clip to [0, 0.5].

FuseSuccessiveReluClip merges a Relu after a Clip with constant bounds into one Clip. Uncommon:
Clip(x, 0, 0.5) written (Operators.md Relu, Clip-13).""",
    {
        "common": ("a = Clip(x, lo, hi)\ny = Relu(a)", ""),
        "clip": ("y = Clip(x, zero, hi)", "Clip(x, 0, 0.5)"),
    },
    SIG,
)

_case(
    "clip-clip",
    "FuseSuccessiveClip",
    """Clip(Clip(x, -0.5, 0.5), -0.25, 0.75) of x: [N, 8] (float): a clip to [-0.25, 0.5].

FuseSuccessiveClip merges two Clips with constant bounds. Uncommon: the one Clip written, the
inner bounds from Constant nodes (Operators.md Clip-13).""",
    {
        "common": ("a = Clip(x, lo, hi)\ny = Clip(a, lo2, hi2)", ""),
        "merged": ("y = Clip(x, lo2, hi)", "Clip(x, -0.25, 0.5)"),
        "constant-nodes": (
            "l = Constant <value_float = -0.5> ()\nh = Constant <value_float = 0.5> ()\na = Clip(x, l, h)\n"
            "y = Clip(a, lo2, hi2)",
            "the inner bounds from Constant(value_float)",
        ),
    },
    SIG,
)

_case(
    "cast-cast",
    "CastCast",
    """float16 x: [N, 8] cast to float, then to float16 (float16).

CastCast collapses Cast(Cast(x, float), float16) to Cast(x, float16) (an allowed (float,
float16) pair); CastIdentity then drops it. Uncommon: the one Cast to float16, Identity
(Operators.md Cast: float16 -> float is exact).""",
    {
        "common": ("a = Cast <to = 1> (x)\ny = Cast <to = 10> (a)", ""),
        "single-cast": ("y = Cast <to = 10> (x)", "one Cast to its own type"),
        "identity": ("y = Identity(x)", "Identity"),
    },
    "(float16[N,8] x) => (float16[N,8] y)",
    targets=("CastIdentity",),
)

_case(
    "expand-same-shape",
    "ExpandIdentity",
    """Expand of x: [2, 8] to its own shape [2, 8], then Neg (float).

ExpandIdentity needs x's static shape to equal the constant shape. Uncommon: Identity, the shape
from a Constant(value_ints) node (Operators.md Expand).""",
    {
        "common": ("e = Expand(x, shape28)\ny = Neg(e)", ""),
        "constant-node": (
            "k = Constant <value_ints = [2, 8]> ()\ne = Expand(x, k)\ny = Neg(e)",
            "shape from Constant(value_ints)",
        ),
        "no-expand": ("y = Neg(x)", "no Expand"),
    },
    "(float[2,8] x) => (float[2,8] y)",
    bindings=({}, {}),
)

CONSTS.update({"s422": np.array([4, 2, 2], I64), "s242": np.array([2, 4, 2], I64), "s4m1": np.array([4, -1], I64)})
_case(
    "reshape-reshape",
    "ReshapeReshape",
    """x: [2, 8] reshaped to [4, 4]... written Reshape(Reshape(x, [4, 2, 2]), [2, 4, 2]) (float).

ReshapeReshape keeps only the second Reshape when its shape is constant. Uncommon: the one
Reshape, the first shape with a -1 (Operators.md Reshape: -1 infers the dim).""",
    {
        "common": ("a = Reshape(x, s422)\ny = Reshape(a, s242)", ""),
        "single": ("y = Reshape(x, s242)", "one Reshape"),
        "minus-one": ("a = Reshape(x, s4m1)\ny = Reshape(a, s242)", "first shape [4, -1]"),
    },
    "(float[2,8] x) => (float[2,4,2] y)",
    bindings=({}, {}),
)

_case(
    "transpose-identity",
    "TransposeIdentity",
    """Transpose of x: [N, 8] with perm [0, 1], then Neg (float).

TransposeIdentity drops a Transpose whose perm is the identity. Uncommon: no Transpose, two
reversing Transposes (Operators.md Transpose).""",
    {
        "common": ("t = Transpose <perm = [0, 1]> (x)\ny = Neg(t)", ""),
        "none": ("y = Neg(x)", "no Transpose"),
        "two-reversals": (
            "a = Transpose <perm = [1, 0]> (x)\nt = Transpose <perm = [1, 0]> (a)\ny = Neg(t)",
            "two reversals",
        ),
    },
    SIG,
)

_case(
    "unsqueeze-unsqueeze",
    "UnsqueezeUnsqueeze",
    """Unsqueeze(Unsqueeze(x: [N, 8], [0]), [1]): [1, 1, N, 8] (float).

UnsqueezeUnsqueeze merges two Unsqueezes with constant non-negative axes. Uncommon: one Unsqueeze
with axes [0, 1], the axes from Constant nodes (Operators.md Unsqueeze-13).""",
    {
        "common": ("a = Unsqueeze(x, ax0)\ny = Unsqueeze(a, ax1)", ""),
        "single": ("y = Unsqueeze(x, ax01)", "one Unsqueeze, axes [0, 1]"),
        "constant-nodes": (
            "k0 = Constant <value_ints = [0]> ()\na = Unsqueeze(x, k0)\n"
            "k1 = Constant <value_ints = [1]> ()\n"
            "y = Unsqueeze(a, k1)",
            "axes from Constant(value_ints)",
        ),
    },
    "(float[N,8] x) => (float[1,1,N,8] y)",
)

_case(
    "squeeze-reshape-1d",
    "SqueezeReshape1d",
    """Reshape(Squeeze(x), [-1]) of a 1-D x: [8] (float).

SqueezeReshape1d drops both when x is 1-D. Uncommon: Identity, Squeeze with its axes omitted
then Flatten-free Reshape to [8] (Operators.md Squeeze-13, Reshape).""",
    {
        "common": ("a = Squeeze(x)\nr = Reshape(a, m1)\ny = Neg(r)", ""),
        "reshape-8": ("a = Squeeze(x)\nr = Reshape(a, s8)\ny = Neg(r)", "Reshape to [8]"),
        "none": ("y = Neg(x)", "no Squeeze/Reshape"),
    },
    "(float[8] x) => (float[8] y)",
    bindings=({}, {}),
)

GEMM = "g = Gemm <transB = 0> (x, gw, gb)\n"
_case(
    "gemm-bn",
    "FuseBatchNormIntoGemm",
    """Gemm(x: [N, 8], w: [8, 4], b) then BatchNormalization over the 4 columns, then Neg (float).

FuseBatchNormIntoGemm folds constant scale, B, mean and var into the Gemm's B and C. Uncommon:
epsilon written at its default, the Gemm's alpha and beta written at 1 (Operators.md Gemm,
BatchNormalization-15).""",
    {
        "common": (GEMM + "b = BatchNormalization(g, bn_s, bn_b, bn_m, bn_v)\ny = Neg(b)", ""),
        "epsilon-explicit": (
            GEMM + "b = BatchNormalization <epsilon = 1e-05> (g, bn_s, bn_b, bn_m, bn_v)\ny = Neg(b)",
            "epsilon 1e-5 written",
        ),
        "alpha-beta": (
            "g = Gemm <alpha = 1.0, beta = 1.0> (x, gw, gb)\n"
            "b = BatchNormalization(g, bn_s, bn_b, bn_m, bn_v)\ny = Neg(b)",
            "alpha 1 and beta 1 written",
        ),
    },
    "(float[N,8] x) => (float[N,4] y)",
)

_case(
    "conv-transpose-bn",
    "FuseBatchNormIntoConvTranspose",
    """ConvTranspose 3x3 of x: [N, 2, 4, 4] to 3 channels, then BatchNormalization (inference), then Relu (float).

FuseBatchNormIntoConvTranspose folds constant BN parameters into the ConvTranspose's weight and
bias. Uncommon: epsilon written, the pads written at their default 0 (Operators.md ConvTranspose,
BatchNormalization-15).""",
    {
        "common": ("c = ConvTranspose(x, tw)\nb = BatchNormalization(c, bn3_s, bn3_b, bn3_m, bn3_v)\ny = Relu(b)", ""),
        "epsilon-explicit": (
            "c = ConvTranspose(x, tw)\n"
            "b = BatchNormalization <epsilon = 1e-05> (c, bn3_s, bn3_b, bn3_m, bn3_v)\n"
            "y = Relu(b)",
            "epsilon 1e-5 written",
        ),
        "pads-explicit": (
            "c = ConvTranspose <pads = [0, 0, 0, 0]> (x, tw)\n"
            "b = BatchNormalization(c, bn3_s, bn3_b, bn3_m, bn3_v)\n"
            "y = Relu(b)",
            "pads 0 written",
        ),
    },
    "(float[N,2,4,4] x) => (float[N,3,6,6] y)",
    bindings=({"N": 1}, {"N": 2}),
)

_case(
    "gemm-zero-bias",
    "RemoveOptionalBiasFromGemm",
    """Gemm(x: [N, 8], w: [8, 4], C = zeros) (float).

RemoveOptionalBiasFromGemm drops an all-zero constant C (optional, Operators.md Gemm). Uncommon:
C omitted, MatMul (Gemm without C is x @ w).""",
    {
        "common": ("y = Gemm(x, gw, z4)", ""),
        "c-omitted": ("y = Gemm(x, gw)", "C omitted"),
        "matmul": ("y = MatMul(x, gw)", "MatMul"),
    },
    "(float[N,8] x) => (float[N,4] y)",
)

_case(
    "conv-zero-bias",
    "RemoveOptionalBiasFromConv",
    """Conv 3x3 (pads 1) of x: [N, 2, 6, 6] with an all-zero bias [3] (float).

RemoveOptionalBiasFromConv drops a constant all-zero B (optional, Operators.md Conv). Uncommon:
B omitted, B written as the empty name (IR.md "Optional inputs").""",
    {
        "common": ("y = Conv <pads = [1, 1, 1, 1]> (x, cw, z3)", ""),
        "bias-omitted": ("y = Conv <pads = [1, 1, 1, 1]> (x, cw)", "B omitted"),
    },
    "(float[N,2,6,6] x) => (float[N,3,6,6] y)",
    bindings=({"N": 1}, {"N": 2}),
)

_case(
    "conv-transpose-zero-bias",
    "RemoveOptionalBiasFromConvTranspose",
    """ConvTranspose 3x3 of x: [N, 2, 4, 4] with an all-zero bias [3] (float).

RemoveOptionalBiasFromConvTranspose drops a constant all-zero B (optional, Operators.md
ConvTranspose). Uncommon: B omitted.""",
    {
        "common": ("y = ConvTranspose(x, tw, z3)", ""),
        "bias-omitted": ("y = ConvTranspose(x, tw)", "B omitted"),
    },
    "(float[N,2,4,4] x) => (float[N,3,6,6] y)",
    bindings=({"N": 1}, {"N": 2}),
)

CONSTS.update(
    {
        "qw": R.integers(0, 4, (3, 2, 3, 3)).astype(np.uint8),
        "xs": np.array(0.1, np.float32),
        "xz": np.array(128, np.uint8),
        "ws": np.array(0.05, np.float32),
        "wz": np.array(0, np.uint8),
        "ys": np.array(0.2, np.float32),
        "yz": np.array(128, np.uint8),
        "qb0": np.zeros(3, np.int32),
    }
)
_case(
    "qlinearconv-zero-bias",
    "RemoveOptionalBiasFromQLinearConv",
    """QLinearConv 3x3 (pads 1) of uint8 x: [N, 2, 6, 6] with an all-zero int32 bias [3] (uint8).

RemoveOptionalBiasFromQLinearConv drops a constant all-zero B (optional, Operators.md
QLinearConv). Uncommon: B omitted.""",
    {
        "common": ("y = QLinearConv <pads = [1, 1, 1, 1]> (x, xs, xz, qw, ws, wz, ys, yz, qb0)", ""),
        "bias-omitted": ("y = QLinearConv <pads = [1, 1, 1, 1]> (x, xs, xz, qw, ws, wz, ys, yz)", "B omitted"),
    },
    "(uint8[N,2,6,6] x) => (uint8[N,3,6,6] y)",
    bindings=({"N": 1}, {"N": 2}),
)
_case(
    "convinteger-same-upper",
    "NormalizePadFormatConvInteger",
    """ConvInteger 3x3 of uint8 x: [N, 2, 6, 6] with auto_pad SAME_UPPER (int32).

NormalizePadFormatConvInteger writes auto_pad as explicit pads. Uncommon: pads [1, 1, 1, 1]
written, auto_pad SAME_LOWER (equal for an odd kernel) (Operators.md ConvInteger, Conv: auto_pad).""",
    {
        "common": ('y = ConvInteger <auto_pad = "SAME_UPPER"> (x, qw, xz, wz)', ""),
        "explicit-pads": ("y = ConvInteger <pads = [1, 1, 1, 1]> (x, qw, xz, wz)", "pads written"),
        "same-lower": ('y = ConvInteger <auto_pad = "SAME_LOWER"> (x, qw, xz, wz)', "SAME_LOWER, odd kernel"),
    },
    "(uint8[N,2,6,6] x) => (int32[N,3,6,6] y)",
    bindings=({"N": 1}, {"N": 2}),
)
