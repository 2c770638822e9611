"""pattern-ort/*: one base per rewrite rule of onnxruntime's Level1 rule-based transformer.

Each case is the pattern the rule's own ``SatisfyCondition`` accepts (onnxruntime
core/optimizer/*.cc: op type and since_version, which inputs must be constant initializers, the
constant values required), then the valid respellings the spec allows around it. A rule never
removes a node whose output is a graph output, so each pattern sits between a leading Relu and a
trailing Neg.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.fusion import fusion_case

FAMILY = "pattern-ort"
R = rng(FAMILY)
I64 = np.int64
BIG = np.iinfo(np.int64).max
CONSTS = {
    "zero": np.array(0.0),
    "one": np.array(1.0),
    "zero_v": np.zeros(8),
    "one_v": np.ones(8),
    "s0": np.array([0], dtype=I64),
    "s00": np.array([0, 0], dtype=I64),
    "e_max": np.array([BIG], dtype=I64),
    "e_max2": np.array([BIG, BIG], dtype=I64),
    "e8": np.array([8], dtype=I64),
    "ax1": np.array([1], dtype=I64),
    "ax01": np.array([0, 1], dtype=I64),
    "step1": np.array([1], dtype=I64),
    "axm1": np.array([-1], dtype=I64),
    "ax0": np.array([0], dtype=I64),
    "b8": R.standard_normal(8),
    "shape8": np.array([8], dtype=I64),
    "shape18": np.array([1, 8], dtype=I64),
    "shape1": np.array([1], dtype=I64),
    "ratio": np.array(0.5),
    "train_off": lambda: np.array(False),
    "w": R.standard_normal((8, 4)),
    "c4": R.standard_normal(4),
    "wt": R.standard_normal((4, 8)),
    "bn_s": R.uniform(0.5, 1.5, 4),
    "bn_b": R.standard_normal(4),
    "bn_m": R.standard_normal(4),
    "bn_v": R.uniform(0.5, 1.5, 4),
    "cw": R.standard_normal((3, 2, 3, 3)),
    "cb": R.standard_normal(3),
    "cadd": R.standard_normal((3, 1, 1)),
    "cs": R.uniform(0.5, 1.5, 3),
    "cbb": R.standard_normal(3),
    "cm": R.standard_normal(3),
    "cv": R.uniform(0.5, 1.5, 3),
    "pads": np.array([0, 0, 1, 1, 0, 0, 1, 1], dtype=I64),
}
CONSTS["cadd4"] = CONSTS["cadd"].reshape(1, 3, 1, 1)
#: Without Conv's bias b, Add(c, k + b) and BatchNormalization with mean - b give the same values.
CONSTS["cadd_b"] = CONSTS["cadd"] + CONSTS["cb"].reshape(3, 1, 1)
CONSTS["cm_b"] = CONSTS["cm"] - CONSTS["cb"]
SIG = "(T[N,8] x) => (T[N,8] y)"
BINDINGS = ({"N": 1}, {"N": 3})


def _rule(name: str, rule: str, doc: str, forms: dict, gone=(), sig: str = SIG, **kw) -> None:
    """A Level1 rule's case: ``forms`` bodies read ``r = Relu(x)`` first and end in ``y = Neg(...)``."""
    fusion_case(
        f"{FAMILY}/{name}",
        transformer=rule,
        level="basic",
        signature=sig,
        consts=CONSTS,
        gone=gone,
        bindings=kw.pop("bindings", BINDINGS),
        doc=doc,
        forms=forms,
        tags=("pattern", "rewrite-rule"),
        **kw,
    )


def _wrap(body: str) -> str:
    return f"r = Relu(x)\n{body}\ny = Neg(s)"


_rule(
    "eliminate-slice",
    "EliminateSlice",
    """Slice of r = Relu(x): [N, 8] that keeps every element, then Neg (float).

EliminateSlice removes a Slice whose starts are 0, ends reach the dim (INT64_MAX or at least its
dim_value) and steps are 1, all constant. Uncommon: axes and steps written, both axes sliced with
axes omitted, the end written as the dim_value 8, axes as -1 (Operators.md Slice-13).""",
    {
        "common": (_wrap("s = Slice(r, s0, e_max, ax1)"), ""),
        "steps-explicit": (_wrap("s = Slice(r, s0, e_max, ax1, step1)"), "steps [1] written"),
        "axes-omitted": (_wrap("s = Slice(r, s00, e_max2)"), "axes omitted: starts/ends over both axes"),
        "end-at-dim": (_wrap("s = Slice(r, s0, e8, ax1)"), "end written as the dim_value 8"),
        "negative-axis": (_wrap("s = Slice(r, s0, e_max, axm1)"), "axes [-1]"),
    },
    gone=("Slice",),
)

_rule(
    "unsqueeze-initializer",
    "UnsqueezeElimination",
    """x: [N, 8] plus Unsqueeze(b: [8], axes [0]) (float).

UnsqueezeElimination folds an Unsqueeze of a constant initializer into a new initializer (it
reads the opset-11 axes attribute). Uncommon: axes -2, and the opset-13 Unsqueeze with axes as an
initializer or a Constant(value_ints) input (Operators.md Unsqueeze-11/13).""",
    {
        "common": ("u = Unsqueeze <axes = [0]> (b8)\ny = Add(x, u)", "", 11),
        "negative-axis": ("u = Unsqueeze <axes = [-2]> (b8)\ny = Add(x, u)", "axes [-2]", 11),
        "axes-input": ("u = Unsqueeze(b8, ax0)\ny = Add(x, u)", "opset 13+: axes as an input"),
        "axes-constant-node": (
            "m2 = Constant <value_ints = [-2]> ()\nu = Unsqueeze(b8, m2)\ny = Add(x, u)",
            "axes [-2] from Constant(value_ints)",
        ),
    },
    gone=("Unsqueeze",),
)

_rule(
    "eliminate-dropout",
    "EliminateDropout",
    """Dropout of r = Relu(x): [N, 8] at inference, then Neg (float).

EliminateDropout removes a Dropout whose mask output is unused (inference: the identity,
Operators.md Dropout-13). Uncommon: ratio written, ratio and training_mode false written, the
ratio skipped with ``""`` before training_mode, opset-10 Dropout with the ratio attribute.""",
    {
        "common": (_wrap("s = Dropout(r)"), ""),
        "ratio": (_wrap("s = Dropout(r, ratio)"), "ratio 0.5 written"),
        "training-mode-false": (_wrap("s = Dropout(r, ratio, train_off)"), "training_mode false written"),
        "ratio-empty": (_wrap('s = Dropout(r, "", train_off)'), "ratio written as the empty name"),
        "ratio-attribute": (_wrap("s = Dropout <ratio = 0.5> (r)"), "opset 10: ratio attribute", 10),
    },
    gone=("Dropout",),
)

_rule(
    "expand-same-shape",
    "ExpandElimination",
    """Expand of r = Relu(x): [N, 8] to a shape it already has, then Neg (float).

ExpandElimination removes an Expand whose constant shape broadcasts to the input's own shape.
Uncommon: the shape [1, 8], [1] and [8] (Operators.md Expand: numpy broadcasting).""",
    {
        "common": (_wrap("s = Expand(r, shape8)"), ""),
        "shape-1-8": (_wrap("s = Expand(r, shape18)"), "shape [1, 8]"),
        "shape-1": (_wrap("s = Expand(r, shape1)"), "shape [1]"),
    },
    gone=("Expand",),
)

_rule(
    "cast-same-type",
    "CastElimination",
    """Cast of r = Relu(x): [N, 8] to its own elem_type, then Neg (float).

Uncommon: the opset-19 Cast with saturate = 1 written (its default), the opset-13 Cast, and
CastLike to r itself (Operators.md Cast-19, CastLike).""",
    {
        "common": (_wrap("s = Cast <to = T> (r)"), ""),
        "saturate-explicit": (_wrap("s = Cast <to = T, saturate = 1> (r)"), "opset 19: saturate 1 written", 19),
        "opset-13": (_wrap("s = Cast <to = T> (r)"), "opset 13", 13),
        "castlike": (_wrap("s = CastLike(r, r)"), "CastLike(r, r)"),
    },
    gone=("Cast",),
)

_rule(
    "cast-before-shape",
    "PreShapeNodeElimination",
    """Shape of Cast(x: [N, 8]) to double, as int64 [2] (float).

PreShapeNodeElimination drops a Cast (opset 13/15/19) whose only consumers are Shape nodes: the
cast cannot change the shape. Uncommon: two Shape consumers, opset-19 Cast with saturate written
(Operators.md Cast, Shape).""",
    {
        "common": ("r = Relu(x)\nc = Cast <to = 11> (r)\ny = Shape(c)", ""),
        "two-shapes": (
            "r = Relu(x)\nc = Cast <to = 11> (r)\nh = Shape(c)\nh2 = Shape(c)\ny = Max(h, h2)",
            "two Shape consumers",
        ),
        "saturate-explicit": (
            "r = Relu(x)\nc = Cast <to = 11, saturate = 1> (r)\ny = Shape(c)",
            "opset 19, saturate 1",
            19,
        ),
    },
    gone=("Cast",),
    sig="(T[N,8] x) => (int64[2] y)",
)

_rule(
    "noop-add-zero",
    "NoopElimination",
    """r = Relu(x): [N, 8] plus a scalar 0, then Neg (float).

NoopElimination removes Add/Sub of 0 and Mul/Div by 1 when the constant does not broadcast the
output to a larger shape. Uncommon: Add(0, r) (commutative), Sub(r, 0), Mul(r, 1), Div(r, 1), a
zero vector [8] (Operators.md Add/Sub/Mul/Div).""",
    {
        "common": (_wrap("s = Add(r, zero)"), ""),
        "zero-first": (_wrap("s = Add(zero, r)"), "Add(0, r)"),
        "sub-zero": (_wrap("s = Sub(r, zero)"), "Sub(r, 0)"),
        "mul-one": (_wrap("s = Mul(r, one)"), "Mul(r, 1)"),
        "div-one": (_wrap("s = Div(r, one)"), "Div(r, 1)"),
        "zero-vector": (_wrap("s = Add(r, zero_v)"), "Add(r, zeros[8])"),
    },
    gone=("Add",),
)

_rule(
    "div-mul",
    "DivMulFusion",
    """x: [N, 8] times 1 / (r + 1), r = Relu(x), then Neg (float).

DivMulFusion rewrites Mul(a, Div(1, b)) as Div(a, b). Uncommon: Mul(Div(1, b), a) (commutative),
the 1 as a Constant(value_float) node (Operators.md Div/Mul).""",
    {
        "common": ("r = Relu(x)\nb = Add(r, one)\nd = Div(one, b)\ns = Mul(x, d)\ny = Neg(s)", ""),
        "reciprocal-first": ("r = Relu(x)\nb = Add(r, one)\nd = Div(one, b)\ns = Mul(d, x)\ny = Neg(s)", "Mul(1/b, x)"),
        "constant-node": (
            "r = Relu(x)\nb = Add(r, one)\nk = Constant <value_float = 1.0> ()\nd = Div(k, b)\n"
            "s = Mul(x, d)\ny = Neg(s)",
            "the 1 from Constant(value_float)",
        ),
    },
    gone=("Mul",),
)

_rule(
    "gemm-sum",
    "GemmSumFusion",
    """Gemm(x: [N, 8], w: [8, 4]) without C, then Sum with c: [4], then Neg (float).

GemmSumFusion moves the Sum's other operand into the Gemm's C. Uncommon: Sum(c, g) (Sum is
commutative), Gemm's alpha/beta written at their defaults (Operators.md Gemm, Sum).""",
    {
        "common": ("g = Gemm(x, w)\ns = Sum(g, c4)\ny = Neg(s)", ""),
        "sum-swapped": ("g = Gemm(x, w)\ns = Sum(c4, g)\ny = Neg(s)", "Sum(c, g)"),
        "defaults-explicit": (
            "g = Gemm <alpha = 1.0, beta = 1.0, transA = 0, transB = 0> (x, w)\ns = Sum(g, c4)\ny = Neg(s)",
            "alpha, beta, transA, transB written at their defaults",
        ),
    },
    gone=("Sum",),
    sig="(T[N,8] x) => (T[N,4] y)",
)

_rule(
    "not-where",
    "NotWhereFusion",
    """Where(Not(x > 0), a, b) of x: [N, 8] (float).

NotWhereFusion drops the Not and swaps Where's branches. Uncommon: the condition as Less(0, x)
(the same predicate), Greater written with a Constant node operand (Operators.md Not, Where).""",
    {
        "common": ("c = Greater(x, zero)\nn = Not(c)\nr = Relu(x)\nwh = Where(n, x, r)\ny = Neg(wh)", ""),
        "less-swapped": (
            "c = Less(zero, x)\nn = Not(c)\nr = Relu(x)\nwh = Where(n, x, r)\ny = Neg(wh)",
            "x > 0 written 0 < x",
        ),
        "constant-node": (
            "k = Constant <value_float = 0.0> ()\nc = Greater(x, k)\nn = Not(c)\nr = Relu(x)\n"
            "wh = Where(n, x, r)\ny = Neg(wh)",
            "the 0 from Constant(value_float)",
        ),
    },
    gone=("Not",),
)

CONV_SIG = "(T[N,2,6,6] x) => (T[N,3,6,6] y)"
CONV = "c = Conv <pads = [1, 1, 1, 1]> (x, cw, cb)\n"
_rule(
    "conv-add",
    "ConvAddFusion",
    """Conv 3x3 (pads 1) of x: [N, 2, 6, 6] plus a per-channel constant [3, 1, 1], then Relu (float).

ConvAddFusion folds an Add of a constant that broadcasts per output channel into Conv's bias.
Uncommon: the constant as [1, 3, 1, 1], Add(k, c) (commutative), Conv without its optional bias B
(added into the constant)
(Operators.md Conv, Add).""",
    {
        "common": (CONV + "a = Add(c, cadd)\ny = Relu(a)", ""),
        "rank4-constant": (CONV + "a = Add(c, cadd4)\ny = Relu(a)", "constant [1, 3, 1, 1]"),
        "add-swapped": (CONV + "a = Add(cadd, c)\ny = Relu(a)", "Add(k, conv)"),
        "no-bias": (
            "c = Conv <pads = [1, 1, 1, 1]> (x, cw)\na = Add(c, cadd_b)\ny = Relu(a)",
            "Conv without its optional bias, the bias added into the Add's constant",
        ),
    },
    gone=("Add",),
    sig=CONV_SIG,
    bindings=({"N": 1}, {"N": 2}),
    targets=("ConvActivationFusion",),
)

_rule(
    "conv-bn",
    "ConvBNFusion",
    """Conv 3x3 (pads 1) of x: [N, 2, 6, 6] then BatchNormalization (inference), then Relu (float).

ConvBNFusion folds constant scale, B, mean and var into the Conv's weight and bias. Uncommon:
epsilon written at its default 1e-5, Conv without a bias (mean - B for mean), training_mode 0
written (Operators.md BatchNormalization-15).""",
    {
        "common": (CONV + "b = BatchNormalization(c, cs, cbb, cm, cv)\ny = Relu(b)", ""),
        "epsilon-explicit": (
            CONV + "b = BatchNormalization <epsilon = 1e-05> (c, cs, cbb, cm, cv)\ny = Relu(b)",
            "epsilon 1e-5 written",
        ),
        "no-bias": (
            "c = Conv <pads = [1, 1, 1, 1]> (x, cw)\nb = BatchNormalization(c, cs, cbb, cm_b, cv)\ny = Relu(b)",
            "Conv without its optional bias, the bias subtracted from the mean",
        ),
        "training-mode-explicit": (
            CONV + "b = BatchNormalization <training_mode = 0> (c, cs, cbb, cm, cv)\ny = Relu(b)",
            "training_mode 0 written (its default)",
        ),
    },
    gone=("BatchNormalization",),
    sig=CONV_SIG,
    bindings=({"N": 1}, {"N": 2}),
    targets=("ConvActivationFusion",),
)

_rule(
    "pad-conv",
    "Pad_Fusion",
    """Zero Pad (1 on H and W) of x: [N, 2, 6, 6], then Conv 3x3 with pads 0, then Relu (float).

PadFusion (rule name Pad_Fusion, the name disabled_optimizers matches) adds a constant-mode zero
Pad's spatial pads to the Conv's ``pads`` attribute, which it must find on the Conv. Uncommon:
constant_value 0 written, mode "constant" written, the opset-10 Pad with pads and value attributes
(Operators.md Pad-2/13, Conv).""",
    {
        "common": ("p = Pad(x, pads)\nc = Conv <pads = [0, 0, 0, 0]> (p, cw, cb)\ny = Relu(c)", ""),
        "value-explicit": (
            "p = Pad(x, pads, zero)\nc = Conv <pads = [0, 0, 0, 0]> (p, cw, cb)\ny = Relu(c)",
            "constant_value 0 written",
        ),
        "mode-explicit": (
            'p = Pad <mode = "constant"> (x, pads)\nc = Conv <pads = [0, 0, 0, 0]> (p, cw, cb)\ny = Relu(c)',
            'mode "constant" written',
        ),
        "attributes": (
            "p = Pad <pads = [0, 0, 1, 1, 0, 0, 1, 1], value = 0.0> (x)\n"
            "c = Conv <pads = [0, 0, 0, 0]> (p, cw, cb)\ny = Relu(c)",
            "opset 10: pads and value attributes",
            10,
        ),
    },
    gone=("Pad",),
    sig=CONV_SIG,
    bindings=({"N": 1}, {"N": 2}),
)

_rule(
    "matmul-bn",
    "MatMul_BatchNormalization_Fusion",
    """MatMul(x: [N, 8], w: [8, 4]) then BatchNormalization over the 4 columns, then Neg (float).

MatmulBNFusion (rule name MatMul_BatchNormalization_Fusion) folds constant scale, B, mean and
var (rank 1, the MatMul's column count) into a Gemm's B and C; it needs epsilon written.
Uncommon: a Reshape to [N, 4] between (the rule skips Reshape/Transpose), momentum written
(Operators.md MatMul, BatchNormalization).""",
    {
        "common": (
            "m = MatMul(x, w)\nb = BatchNormalization <epsilon = 1e-05> (m, bn_s, bn_b, bn_m, bn_v)\ny = Neg(b)",
            "",
        ),
        "reshape-between": (
            "m = MatMul(x, w)\nsh = Constant <value_ints = [-1, 4]> ()\nq = Reshape(m, sh)\n"
            "b = BatchNormalization <epsilon = 1e-05> (q, bn_s, bn_b, bn_m, bn_v)\n"
            "y = Neg(b)",
            "Reshape(-1, 4) between",
        ),
        "momentum-explicit": (
            "m = MatMul(x, w)\n"
            "b = BatchNormalization <epsilon = 1e-05, momentum = 0.9> (m, bn_s, bn_b, bn_m, bn_v)\n"
            "y = Neg(b)",
            "momentum 0.9 written",
        ),
    },
    gone=("BatchNormalization",),
    sig="(T[N,8] x) => (T[N,4] y)",
)
