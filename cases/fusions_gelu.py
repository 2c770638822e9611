"""fusion-gelu/*: GELU (erf and tanh), FastGelu, QuickGELU and BiasGelu chains, spelled every valid way.

GELU(x) = 0.5 x (1 + erf(x / sqrt 2)); its tanh approximation is
0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))); QuickGELU is x * sigmoid(1.702 x). Operators.md
Erf, Tanh, Sigmoid, Pow, Mul, Div, Add; Add and Mul are commutative, ``Div(x, c)`` equals
``Mul(x, 1/c)`` up to rounding, ``Pow(x, 3)`` equals ``Mul(x, Mul(x, x))``. onnxruntime fuses the
chains into com.microsoft Gelu (GeluFusion), FastGelu (FastGeluFusion), QuickGelu (QuickGeluFusion)
and BiasGelu (BiasGeluFusion); a public bug needed the float64 QuickGELU chain.
"""

from __future__ import annotations

import math

import numpy as np

from passcheck.cases.fusion import fusion_case

FAMILY = "fusion-gelu"
CONSTS = {
    "sqrt2": np.array(math.sqrt(2.0)),
    "inv_sqrt2": np.array(1 / math.sqrt(2.0)),
    "one": np.array(1.0),
    "half": np.array(0.5),
    "three": np.array(3.0),
    "coef": np.array(0.044715),
    "s2pi": np.array(math.sqrt(2 / math.pi)),
    "alpha": np.array(1.702),
    "bias": np.linspace(-0.5, 0.5, 8),
}
#: onnxruntime's CPU kernels of Gelu, FastGelu and QuickGelu take float only, so the float16 and
#: double chains stay unfused (no expectation); every pass must still keep the forms' values.
NOT_FUSED = "\nonnxruntime's CPU kernel for the fused op takes float only: no expectation for this dtype."
ROWS = {"r1": ("T[8]", ({}, {})), "r2": ("T[N,8]", ({"N": 1}, {"N": 3})), "r3": ("T[N,4,8]", ({"N": 1}, {"N": 3}))}


def _sig(shape: str, extra: str = "") -> str:
    return f"({shape} x{extra}) => ({shape} y)"


def _erf(
    x: str = "x", *, scale="a = Div({x}, sqrt2)", add="f = Add(e, one)", tail="h = Mul({x}, f)\ny = Mul(h, half)"
) -> str:
    """torch.onnx's exact GELU: Div, Erf, Add 1, Mul x, Mul 0.5."""
    return "\n".join((scale.format(x=x), "e = Erf(a)", add, tail.format(x=x)))


ERF_FORMS = {
    "common": (_erf(), ""),
    "mul-inv-sqrt2": (_erf(scale="a = Mul({x}, inv_sqrt2)"), "Div(x, sqrt 2) written Mul(x, 1/sqrt 2)"),
    "half-first": (_erf(tail="hx = Mul({x}, half)\ny = Mul(hx, f)"), "0.5 * x first, then times (1 + erf)"),
    "operands-swapped": (
        _erf(add="f = Add(one, e)", tail="h = Mul(f, {x})\ny = Mul(half, h)"),
        "Add(1, e), Mul(f, x), Mul(0.5, h)",
    ),
}
ERF_DOC = """Exact GELU of x: {shape} ({dtype}): 0.5 x (1 + erf(x / sqrt 2)).

Common: Div, Erf, Add, Mul, Mul (torch.onnx before opset 20). Uncommon: Mul by 1/sqrt 2, the 0.5
applied first, swapped operands (Operators.md Erf, Broadcasting.md)."""
for rank in ("r1", "r2", "r3"):
    shape, binds = ROWS[rank]
    fusion_case(
        f"{FAMILY}/gelu-erf-{rank}",
        transformer="GeluFusion",
        level="extended",
        signature=_sig(shape),
        forms=ERF_FORMS,
        consts=CONSTS,
        gone=("Erf",),
        bindings=binds,
        doc=ERF_DOC.format(shape=shape.replace("T", ""), dtype="float"),
    )
fusion_case(
    f"{FAMILY}/gelu-erf-f16",
    transformer="GeluFusion",
    level="extended",
    signature=_sig("T[N,4,8]"),
    forms=ERF_FORMS,
    consts=CONSTS,
    dtype="float16",
    doc=ERF_DOC.format(shape="[N,4,8]", dtype="float16") + NOT_FUSED,
)
fusion_case(
    f"{FAMILY}/gelu-erf-opset20",
    transformer="GeluFusion",
    level="basic",
    signature=_sig("T[N,4,8]"),
    forms=ERF_FORMS,
    consts=CONSTS,
    gone=("Erf",),
    opset=20,
    doc=ERF_DOC.format(shape="[N,4,8]", dtype="float")
    + "\nAt opset 20 GeluFusion writes the ONNX Gelu op already at the basic level.",
)


def _tanh(
    *,
    cube="c = Pow(x, three)\nk = Mul(c, coef)\ni = Add(x, k)\nj = Mul(i, s2pi)",
    add="o = Add(t, one)",
    tail="h = Mul(x, half)\ngl = Mul(h, o)",
) -> str:
    """torch.onnx's GELU(approximate='tanh'): Pow 3, Mul 0.044715, Add x, Mul sqrt(2/pi), Tanh, Add 1, Mul,
    then Neg: FastGeluFusion leaves a chain whose last Mul is a graph output alone."""
    return "\n".join((cube, "t = Tanh(j)", add, tail, "y = Neg(gl)"))


TANH_FORMS = {
    "common": (_tanh(), ""),
    "cube-mul": (
        _tanh(cube="x2 = Mul(x, x)\nc = Mul(x2, x)\nk = Mul(c, coef)\ni = Add(x, k)\nj = Mul(i, s2pi)"),
        "Pow(x, 3) written Mul(Mul(x, x), x)",
    ),
    "megatron": (
        _tanh(cube="k = Mul(x, coef)\nk2 = Mul(k, x)\nk1 = Add(k2, one)\nxs = Mul(x, s2pi)\nj = Mul(xs, k1)"),
        "Megatron's spelling: sqrt(2/pi) x (1 + 0.044715 x x), as (x * 0.044715) * x",
    ),
    "megatron-square-first": (
        _tanh(cube="x2 = Mul(x, x)\nk = Mul(x2, coef)\nk1 = Add(k, one)\nxs = Mul(x, s2pi)\nj = Mul(xs, k1)"),
        "Megatron's spelling with x * x first, then times 0.044715",
    ),
    "operands-swapped": (
        _tanh(add="o = Add(one, t)", tail="h = Mul(half, x)\ngl = Mul(o, h)"),
        "Add(1, t), Mul(0.5, x), Mul(o, h)",
    ),
}
TANH_DOC = """tanh-approximated GELU of x: {shape} ({dtype}), then Neg.

Common: torch.onnx's gelu(approximate='tanh') chain with Pow(x, 3). Uncommon: x*x*x, Megatron's
factored form x (1 + 0.044715 x^2) in two orders, swapped operands (Operators.md Tanh/Pow,
Broadcasting.md). The trailing Neg keeps the chain's last Mul from being a graph output, which
FastGeluFusion never fuses."""
for rank in ("r2", "r3"):
    shape, binds = ROWS[rank]
    fusion_case(
        f"{FAMILY}/fastgelu-{rank}",
        transformer="FastGeluFusion",
        level="extended",
        signature=_sig(shape),
        forms=TANH_FORMS,
        consts=CONSTS,
        gone=("Tanh",),
        bindings=binds,
        doc=TANH_DOC.format(shape=shape.replace("T", ""), dtype="float"),
    )
fusion_case(
    f"{FAMILY}/fastgelu-f16",
    transformer="FastGeluFusion",
    level="extended",
    signature=_sig("T[N,4,8]"),
    forms=TANH_FORMS,
    consts=CONSTS,
    dtype="float16",
    doc=TANH_DOC.format(shape="[N,4,8]", dtype="float16") + NOT_FUSED,
)

QUICK_FORMS = {
    "common": ("a = Mul(x, alpha)\ns = Sigmoid(a)\ny = Mul(x, s)", ""),
    "alpha-first": ("a = Mul(alpha, x)\ns = Sigmoid(a)\ny = Mul(x, s)", "Mul(1.702, x)"),
    "gate-first": ("a = Mul(x, alpha)\ns = Sigmoid(a)\ny = Mul(s, x)", "Mul(sigmoid, x)"),
}
QUICK_DOC = """QuickGELU of x: {shape} ({dtype}): x * sigmoid(1.702 x) (CLIP's activation).

Common: Mul, Sigmoid, Mul. Uncommon: either Mul's operands swapped (Operators.md Mul: commutative,
numpy broadcasting)."""
for rank in ("r1", "r2", "r3"):
    shape, binds = ROWS[rank]
    fusion_case(
        f"{FAMILY}/quickgelu-{rank}",
        transformer="QuickGeluFusion",
        level="extended",
        signature=_sig(shape),
        forms=QUICK_FORMS,
        consts=CONSTS,
        gone=("Sigmoid",),
        bindings=binds,
        doc=QUICK_DOC.format(shape=shape.replace("T", ""), dtype="float"),
    )
for dt in ("float16", "double"):
    fusion_case(
        f"{FAMILY}/quickgelu-{'f16' if dt == 'float16' else 'f64'}",
        transformer="QuickGeluFusion",
        level="extended",
        signature=_sig("T[N,4,8]"),
        forms=QUICK_FORMS,
        consts=CONSTS,
        dtype=dt,
        doc=QUICK_DOC.format(shape="[N,4,8]", dtype=dt) + NOT_FUSED,
    )

BIAS_DOC = """GELU(x + bias), x: [N, 4, 8], bias: [8] (float): the MLP activation after a MatMul's bias.

Common: Add(x, bias) then the erf GELU chain. Uncommon: Add(bias, x) (Add is commutative), and
the bias added through a Mul-by-1/sqrt 2 GELU spelling (Operators.md Add/Erf)."""
fusion_case(
    f"{FAMILY}/biasgelu",
    transformer="BiasGeluFusion",
    level="extended",
    signature=_sig("T[N,4,8]"),
    consts=CONSTS,
    gone=("Erf", "Add"),
    doc=BIAS_DOC,
    forms={
        "common": ("z = Add(x, bias)\n" + _erf("z"), ""),
        "bias-first": ("z = Add(bias, x)\n" + _erf("z"), "Add(bias, x)"),
        "mul-inv-sqrt2": (
            "z = Add(x, bias)\n" + _erf("z", scale="a = Mul({x}, inv_sqrt2)"),
            "GELU with Mul by 1/sqrt 2",
        ),
    },
)

SILU_DOC = """SiLU / Swish of x: [N, 4, 8] (float): x * sigmoid(x), QuickGELU with alpha 1.

Common: Sigmoid then Mul (torch.onnx's SiLU before opset 22 has no Swish op). Uncommon: Mul(sigmoid,
x), and the alpha 1 written as a Mul by 1 before the Sigmoid (Operators.md Sigmoid/Mul)."""
fusion_case(
    f"{FAMILY}/silu",
    transformer="QuickGeluFusion",
    level="extended",
    signature=_sig("T[N,4,8]"),
    consts=CONSTS,
    gone=("Sigmoid",),
    doc=SILU_DOC,
    forms={
        "common": ("s = Sigmoid(x)\ny = Mul(x, s)", ""),
        "gate-first": ("s = Sigmoid(x)\ny = Mul(s, x)", "Mul(sigmoid, x)"),
        "alpha-one": ("a = Mul(x, one)\ns = Sigmoid(a)\ny = Mul(x, s)", "sigmoid(1 * x): the alpha 1 written"),
    },
)
fusion_case(
    f"{FAMILY}/biasgelu-r2",
    transformer="BiasGeluFusion",
    level="extended",
    signature=_sig("T[N,8]"),
    consts=CONSTS,
    gone=("Erf", "Add"),
    doc=BIAS_DOC.replace("x: [N, 4, 8]", "x: [N, 8]"),
    forms={
        "common": ("z = Add(x, bias)\n" + _erf("z"), ""),
        "bias-first": ("z = Add(bias, x)\n" + _erf("z"), "Add(bias, x)"),
    },
)
