"""pattern-onnxscript-ort/*: bases for the rules ``onnxscript.optimizer.optimize_for_ort`` adds.

``optimize_for_ort`` applies the ORT pattern rules (onnxscript rewriter/ort_fusions:
fused_matmul_rule_sets.py folds Transpose, Div and MatMul chains into com.microsoft FusedMatMul;
softmax.py removes a float upcast around Softmax on float16). Each case is the chain those rules'
patterns and checks accept, then respelled as the spec allows.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.rules import onnxscript_case

FAMILY = "pattern-onnxscript-ort"
CONSTS = {
    "c": np.array(2.0, np.float32),
    "c2": np.array(4.0, np.float32),
    "half": np.array(0.5, np.float32),
    "q": np.array(0.25, np.float32),
    "c8": np.array(8.0, np.float32),
}
PASS = "onnxscript:optimize-for-ort"


def _case(name: str, rule: str, doc: str, forms: dict, sig: str, **kw) -> None:
    onnxscript_case(f"{FAMILY}/{name}", rule, doc, forms, sig, consts=CONSTS, pass_id=PASS, bindings=({}, {}), **kw)


CHAIN = "ta = Transpose(a)\ntb = Transpose(b)\nm = MatMul(ta, tb)\n"
_case(
    "transpose-matmul-div-transpose",
    "TransposeMatMul1",
    """Transpose((a^T @ b^T) / 2 / 4) of a: [4, 3], b: [5, 4] (float): [5, 3].

The FusedMatMul rules fold the chain step by step: MatMul(Transpose(a), y) (TransposeMatMul1),
FusedMatMul(x, Transpose(b)) (TransposeFusedMatMul2), Div of a FusedMatMul by a constant
(FusedMatMulDiv2), Transpose of a FusedMatMul (FusedMatMulTranspose). Uncommon: the two Divs
written as one Div by 8 and as Mul by 0.25 (Operators.md MatMul, Transpose: default perm
reverses, Div).""",
    {
        "common": (CHAIN + "d1 = Div(m, c)\nd2 = Div(d1, c2)\ny = Transpose(d2)", ""),
        "one-div": (CHAIN + "d2 = Div(m, c8)\ny = Transpose(d2)", "one Div by 8"),
        "mul-quarter": (CHAIN + "d1 = Mul(m, q)\nd2 = Mul(d1, half)\ny = Transpose(d2)", "Mul by 0.25 then 0.5"),
    },
    "(float[4,3] a, float[5,4] b) => (float[5,3] y)",
    targets=("TransposeFusedMatMul2", "FusedMatMulDiv2", "FusedMatMulTranspose"),
)

_case(
    "matmul-transpose",
    "MatMulTranspose",
    """Transpose(a @ b) of a: [3, 4], b: [4, 5] (float): [5, 3].

MatMulTranspose folds the Transpose into FusedMatMul (as b^T @ a^T). Uncommon: b^T @ a^T
written, perm [1, 0] written (Operators.md MatMul, Transpose).""",
    {
        "common": ("m = MatMul(a, b)\ny = Transpose(m)", ""),
        "swapped-transposes": ("tb = Transpose(b)\nta = Transpose(a)\ny = MatMul(tb, ta)", "(a b)^T written b^T a^T"),
        "perm-explicit": ("m = MatMul(a, b)\ny = Transpose <perm = [1, 0]> (m)", "perm [1, 0] written"),
    },
    "(float[3,4] a, float[4,5] b) => (float[5,3] y)",
)

SOFTMAX_DOC = """Softmax of float16 x: [2, 8] computed in float: Cast up, Softmax{axis}, Cast down.

The ORT softmax rule drops the Casts (onnxruntime's float16 Softmax accumulates in float).
Uncommon: the Softmax on float16 directly, axis {alt} written (Operators.md Softmax-13, Cast)."""
_case(
    "softmax-upcast-axis",
    "Cast(input,to=1);Softmax(_,axis=axis);Cast(_,to=10)",
    SOFTMAX_DOC.format(axis=" (axis -1)", alt="1 for -1"),
    {
        "common": ("a = Cast <to = 1> (x)\ns = Softmax <axis = -1> (a)\ny = Cast <to = 10> (s)", ""),
        "float16": ("y = Softmax <axis = -1> (x)", "Softmax on float16"),
        "axis-positive": ("a = Cast <to = 1> (x)\ns = Softmax <axis = 1> (a)\ny = Cast <to = 10> (s)", "axis 1"),
    },
    "(float16[2,8] x) => (float16[2,8] y)",
)
_case(
    "softmax-upcast",
    "Cast(input,to=1);Softmax(_);Cast(_,to=10)",
    SOFTMAX_DOC.format(axis="", alt="-1 (the default)"),
    {
        "common": ("a = Cast <to = 1> (x)\ns = Softmax(a)\ny = Cast <to = 10> (s)", ""),
        "float16": ("y = Softmax(x)", "Softmax on float16"),
    },
    "(float16[2,8] x) => (float16[2,8] y)",
)

CONSTS.update(
    {
        "two": np.array(2.0, np.float32),
        "eps": np.array(1e-6, np.float32),
        "ax": np.array([-1], np.int64),
        "g": np.linspace(0.5, 1.5, 8).astype(np.float32),
        "one": np.array(1.0, np.float32),
        "s2": np.array(np.sqrt(2.0), np.float32),
    }
)
RMS = (
    "p = Pow(x, two)\nm = ReduceMean <keepdims = 1, noop_with_empty_axes = 0> (p, ax)\na = Add(m, eps)\n"
    "r = Sqrt(a)\n"
    "rc = Reciprocal(r)\nn = Mul(x, rc)\ny = Mul(n, g)"
)
RMS_DOC = """RMSNorm{skip} over the last axis of x: [N, 4, 8] (float): x / sqrt(mean(x^2) + 1e-6) * g.

fuse_xformers' {fusion} pattern (ort_fusions/rms_normalization.py{extra}) spells ReduceMean
with keepdims = 1 and noop_with_empty_axes = 0. Uncommon: those attributes omitted (their
defaults, Operators.md ReduceMean-18), Div by the rms for Mul by its Reciprocal, Mul(g, n)
(commutative)."""
RMS_FORMS = {
    "common": (RMS, ""),
    "defaults-omitted": (
        RMS.replace(" <keepdims = 1, noop_with_empty_axes = 0>", ""),
        "keepdims and noop_with_empty_axes omitted",
    ),
    "div": (RMS.replace("rc = Reciprocal(r)\nn = Mul(x, rc)", "n = Div(x, r)"), "x / rms"),
    "scale-first": (RMS.replace("y = Mul(n, g)", "y = Mul(g, n)"), "Mul(g, n)"),
}
onnxscript_case(
    f"{FAMILY}/rms-normalization",
    "rms_normalization",
    RMS_DOC.format(skip="", fusion="rms_normalization", extra=""),
    RMS_FORMS,
    "(float[N,4,8] x) => (float[N,4,8] y)",
    consts=CONSTS,
    pass_id=PASS,
    kind="fusion",
)
onnxscript_case(
    f"{FAMILY}/skip-rms-normalization",
    "skip_rms_normalization",
    RMS_DOC.format(
        skip=" of x = x0 + skip", fusion="skip_rms_normalization", extra=", skip_normalization.py: an Add in front"
    ),
    {k: ("x = Add(x0, skip)\n" + body, *rest) for k, (body, *rest) in RMS_FORMS.items()},
    "(float[N,4,8] x0, float[N,4,8] skip) => (float[N,4,8] y)",
    consts=CONSTS,
    pass_id=PASS,
    kind="fusion",
    targets=("rms_normalization",),
)

GELU = "d = Div(x, s2)\ne = Erf(d)\nf = Add(e, one)\n"
onnxscript_case(
    f"{FAMILY}/erf-gelu",
    "erf_gelu",
    """Exact GELU of x: [N, 4, 8] (float): 0.5 * (x * (1 + erf(x / sqrt 2))).

fuse_xformers' erf_gelu patterns (ort_fusions/erfgelu.py) are 0.5 * (x * (erf + 1)) and
x * (0.5 * (erf + 1)). Uncommon: the second grouping, and (x * (erf + 1)) * 0.5 with the half
last (Operators.md Erf, Mul: associative up to rounding, commutative).""",
    {
        "common": (GELU + "h = Mul(x, f)\ny = Mul(half, h)", ""),
        "half-inside": (GELU + "h = Mul(half, f)\ny = Mul(x, h)", "x * (0.5 * (erf + 1))"),
        "half-last": (GELU + "h = Mul(x, f)\ny = Mul(h, half)", "(x * (erf + 1)) * 0.5"),
    },
    "(float[N,4,8] x) => (float[N,4,8] y)",
    consts=CONSTS,
    pass_id=PASS,
    kind="fusion",
)

CONSTS.update(
    {
        "gw": np.linspace(-1, 1, 32, dtype=np.float32).reshape(8, 4),
        "gb": np.array([1, 2, 3, 4], np.float32),
        "gs2": np.array([-1, 8], np.int64),
        "gs3": np.array([2, 3, 4], np.int64),
    }
)
GEMM3 = "r = Reshape(x, gs2)\ngm = Gemm <alpha = 1.0, beta = 1.0> (r, gw, gb)\ny = Reshape(gm, gs3)"
onnxscript_case(
    f"{FAMILY}/reshape-gemm-reshape",
    "Reshape(input_a,shape_a);Gemm(_,input_b,input_c,alpha=1.0,beta=1.0);Reshape(_,shape_c)",
    """x: [2, 3, 8] flattened to [6, 8], Gemm by w: [8, 4] plus b, reshaped back to [2, 3, 4] (float).

optimize_for_ort's Gemm rule turns Reshape -> Gemm (alpha 1, beta 1 written) -> Reshape into
MatMul + Add on the 3-D input. Uncommon: alpha and beta omitted (their default 1), the MatMul +
Add written directly (Operators.md Gemm, MatMul: batched over the leading axes).""",
    {
        "common": (GEMM3, ""),
        "defaults-omitted": (GEMM3.replace(" <alpha = 1.0, beta = 1.0>", ""), "alpha and beta omitted"),
        "matmul-add": ("m = MatMul(x, gw)\ny = Add(m, gb)", "MatMul + Add"),
    },
    "(float[2,3,8] x) => (float[2,3,4] y)",
    consts=CONSTS,
    pass_id=PASS,
    bindings=({}, {}),
)
