"""fusion-matmul/*: MatMul+Add, MatMul+scale and Transpose+MatMul chains, spelled every valid way.

Operators.md MatMul (numpy matmul: 1-D operands are promoted and the added axis removed, leading
axes broadcast), Gemm (2-D only), Transpose (``perm`` omitted reverses the axes), Mul/Div/Add with
numpy broadcasting. ``MatMul(a, b) * s`` equals ``MatMul(a * s, b)`` and ``MatMul(a, b) / (1/s)`` up
to rounding; Add and Mul are commutative. onnxruntime rewrites the chains into Gemm
(MatMulAddFusion), com.microsoft FusedMatMul with ``alpha`` (MatMulScaleFusion) or with
``transA``/``transB`` (MatmulTransposeFusion).
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.fusion import fusion_case

FAMILY = "fusion-matmul"
K, M = 8, 6
R = rng(FAMILY)
BIAS = R.standard_normal(M)
CONSTS = {
    "w": R.standard_normal((K, M)),
    "bias": BIAS,
    "bias_row": BIAS.reshape(1, M),
    "scale": np.array(0.125),
    "inv_scale": np.array(8.0),
    "scale_1": np.array([0.125]),
}

ADD_FORMS = {
    "common": ("m = MatMul(x, w)\ny = Add(m, bias)", ""),
    "add-swapped": ("m = MatMul(x, w)\ny = Add(bias, m)", "Add(bias, m) (Add is commutative)"),
    "bias-row": (
        "m = MatMul(x, w)\ny = Add(m, bias_row)",
        "the bias as a [1, M] row instead of [M] (same broadcast result)",
    ),
}
ADD_DOC = """x{shape} @ w: [8, 6] + bias: [6] (float).

Common: MatMul then Add (torch.onnx's Linear before it emits Gemm). Uncommon: Add(bias, m), and
the bias as a [1, 6] row (Broadcasting.md). {note}"""
fusion_case(
    f"{FAMILY}/matmul-add-r2",
    transformer="MatMulAddFusion",
    level="basic",
    signature="(T[N,8] x) => (T[N,6] y)",
    forms=ADD_FORMS,
    consts=CONSTS,
    gone=("MatMul", "Add"),
    doc=ADD_DOC.format(shape=": [N, 8]", note="Gemm takes 2-D operands."),
)
fusion_case(
    f"{FAMILY}/matmul-add-r3",
    transformer="MatMulAddFusion",
    level="basic",
    signature="(T[N,4,8] x) => (T[N,4,6] y)",
    forms=ADD_FORMS,
    consts=CONSTS,
    doc=ADD_DOC.format(shape=": [N, 4, 8]", note="Rank 3: a Gemm needs Reshapes around it; no expectation."),
)
fusion_case(
    f"{FAMILY}/matmul-add-r1",
    transformer="MatMulAddFusion",
    level="basic",
    signature="(T[8] x) => (T[6] y)",
    bindings=({}, {}),
    forms={k: v for k, v in ADD_FORMS.items() if k != "bias-row"},
    consts=CONSTS,
    gone=("MatMul", "Add"),
    doc=ADD_DOC.format(
        shape=": [8]", note="Rank 1: MatMul drops the promoted axis, so the Gemm needs Reshapes around it."
    ),
)

SCALE_FORMS = {
    "common": ("m = MatMul(x, w)\ny = Mul(m, scale)", ""),
    "scale-first": ("m = MatMul(x, w)\ny = Mul(scale, m)", "Mul(scale, m)"),
    "scale-input": ("xs = Mul(x, scale)\ny = MatMul(xs, w)", "the scale applied to the left operand before MatMul"),
    "div": ("m = MatMul(x, w)\ny = Div(m, inv_scale)", "Div by 8 instead of Mul by 0.125"),
    "scale-1d": ("m = MatMul(x, w)\ny = Mul(m, scale_1)", "the scalar as a [1] tensor instead of 0-D"),
}
SCALE_DOC = """(x{shape} @ w: [8, 6]) * 0.125 ({dtype}), the attention-score scaling.

Common: MatMul then Mul by a 0-D constant. Uncommon: Mul(scale, m), the scale on the input, Div by
the reciprocal (exact here: 8 is a power of two), the scale as a [1] tensor (Broadcasting.md)."""
fusion_case(
    f"{FAMILY}/matmul-scale-r3",
    transformer="MatMulScaleFusion",
    level="extended",
    signature="(T[N,4,8] x) => (T[N,4,6] y)",
    forms=SCALE_FORMS,
    consts=CONSTS,
    gone=("Mul", "Div"),
    doc=SCALE_DOC.format(shape=": [N, 4, 8]", dtype="float"),
)
fusion_case(
    f"{FAMILY}/matmul-scale-r2",
    transformer="MatMulScaleFusion",
    level="extended",
    signature="(T[N,8] x) => (T[N,6] y)",
    forms=SCALE_FORMS,
    consts=CONSTS,
    gone=("Mul", "Div"),
    doc=SCALE_DOC.format(shape=": [N, 8]", dtype="float"),
)
fusion_case(
    f"{FAMILY}/matmul-scale-f64",
    transformer="MatMulScaleFusion",
    level="extended",
    signature="(T[N,4,8] x) => (T[N,4,6] y)",
    forms=SCALE_FORMS,
    consts=CONSTS,
    gone=("Mul", "Div"),
    dtype="double",
    doc=SCALE_DOC.format(shape=": [N, 4, 8]", dtype="double"),
)

TRANS_DOC = """a{a} @ transpose(b{b}) ({dtype}): the q @ k^T of attention.

Common: Transpose with an explicit perm swapping the last two axes, then MatMul. Uncommon: {forms}
(Operators.md Transpose: perm omitted reverses the axes)."""


def _trans(rank: str, a: str, b: str, y: str, what: str, forms) -> None:
    fusion_case(
        f"{FAMILY}/transpose-matmul-{rank}",
        transformer="MatmulTransposeFusion",
        level="extended",
        signature=f"(T{a} a, T{b} b) => (T{y} y)",
        gone=("Transpose",),
        forms=forms,
        doc=TRANS_DOC.format(a=": " + a.replace(",", ", "), b=": " + b.replace(",", ", "), dtype="float", forms=what),
    )


_trans(
    "r3",
    "[N,4,8]",
    "[N,6,8]",
    "[N,4,6]",
    "the transpose written as a Transpose of the product b @ a^T",
    {
        "common": ("bt = Transpose <perm = [0, 2, 1]> (b)\ny = MatMul(a, bt)", ""),
        "transposed-product": (
            "at = Transpose <perm = [0, 2, 1]> (a)\np = MatMul(b, at)\ny = Transpose <perm = [0, 2, 1]> (p)",
            "(b @ a^T)^T: two Transposes around the other product",
        ),
    },
)
_trans(
    "r2",
    "[N,8]",
    "[6,8]",
    "[N,6]",
    "Transpose without perm (reverses both axes), a transposed twice",
    {
        "common": ("bt = Transpose <perm = [1, 0]> (b)\ny = MatMul(a, bt)", ""),
        "perm-omitted": ("bt = Transpose(b)\ny = MatMul(a, bt)", "Transpose with perm omitted: the reverse [1, 0]"),
        "transpose-a-side": (
            "at = Transpose <perm = [1, 0]> (a)\nbt = Transpose <perm = [1, 0]> (at)\nbb = Transpose <perm = [1, 0]> (b)\ny = MatMul(bt, bb)",
            "a transposed twice (an identity pair) before the product",
        ),
    },
)
_trans(
    "r4",
    "[N,2,4,8]",
    "[N,2,6,8]",
    "[N,2,4,6]",
    "the perm written as two Transposes whose composition is it",
    {
        "common": ("bt = Transpose <perm = [0, 1, 3, 2]> (b)\ny = MatMul(a, bt)", ""),
        "two-transposes": (
            "b1 = Transpose <perm = [1, 0, 2, 3]> (b)\nb2 = Transpose <perm = [1, 0, 3, 2]> (b1)\ny = MatMul(a, b2)",
            "the perm [0, 1, 3, 2] as two Transposes [1, 0, 2, 3] then [1, 0, 3, 2]",
        ),
    },
)
