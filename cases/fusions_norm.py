"""fusion-norm/*: decomposed LayerNorm, RMSNorm and SkipLayerNorm chains, spelled every valid way.

Operators.md: ReduceMean (opset 13: ``axes`` attribute, ``keepdims`` default 1; opset 18: ``axes``
input), Pow, Sqrt, Reciprocal, Div, Mul, Add, Sub with numpy broadcasting (Broadcasting.md), and
LayerNormalization (opset 17). ``x - mean(x)`` with keepdims=0 plus an explicit Unsqueeze equals the
keepdims=1 spelling; ``Pow(d, 2)`` equals ``Mul(d, d)``; ``Div(d, s)`` equals
``Mul(d, Reciprocal(s))``; Add and Mul are commutative. onnxruntime fuses the chains into
LayerNormalization (LayerNormFusion), SimplifiedLayerNormalization (SimplifiedLayerNormFusion) and
SkipLayerNormalization (SkipLayerNormFusion); public bugs needed the keepdims=0 spelling and the
swapped final Mul/Add of a rank-1 chain.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.fusion import fusion_case

FAMILY = "fusion-norm"
H = 8  # normalized (last) axis
CONSTS = {
    "g": np.linspace(0.5, 1.5, H),
    "b": np.linspace(-0.5, 0.5, H),
    "two": np.array(2.0),
    "eps": np.array(1e-5),
    "rsqrt_exp": np.array(-0.5),
    "last": np.array([-1], dtype=np.int64),
    "two_f32": lambda: np.array(2.0, np.float32),
    "eps_f32": lambda: np.array(1e-5, np.float32),
}


def _ln(
    *,
    square="p = Pow(d, two)",
    div="n = Div(d, s)",
    affine="t = Mul(n, g)\ny = Add(t, b)",
    eps="ve = Add(v, eps)",
    axes="-1",
    keepdims0=False,
    sub="d = Sub(x, m)",
    sqrt="s = Sqrt(ve)",
) -> str:
    """The decomposed LayerNorm an exporter writes for ``LayerNorm(x) * g + b`` over the last axis."""
    if keepdims0:
        means = f"m0 = ReduceMean <axes = [{axes}], keepdims = 0> (x)\nm = Unsqueeze(m0, last)"
        var = f"v0 = ReduceMean <axes = [{axes}], keepdims = 0> (p)\nv = Unsqueeze(v0, last)"
    else:
        means, var = f"m = ReduceMean <axes = [{axes}]> (x)", f"v = ReduceMean <axes = [{axes}]> (p)"
    return "\n".join((means, sub, square, var, eps, sqrt, div, affine))


SWAPPED = "t = Mul(g, n)\ny = Add(b, t)"
RECIPROCAL = "r = Reciprocal(s)\nn = Mul(d, r)"
LN_GONE = ("ReduceMean", "Sqrt", "Div")


def _ln_forms(rank_axis: str, *, scalar_mean: bool = False, few: bool = False):
    forms = {
        "common": (_ln(), ""),
        "mul-square": (_ln(square="p = Mul(d, d)"), "Pow(d, 2) written Mul(d, d)"),
        "reciprocal": (_ln(div=RECIPROCAL), "Div(d, Sqrt(v + eps)) written Mul(d, Reciprocal(Sqrt(v + eps)))"),
        "rsqrt-pow": (
            _ln(sqrt="s = Pow(ve, rsqrt_exp)", div="n = Mul(d, s)"),
            "1 / Sqrt(v + eps) written Pow(v + eps, -0.5)",
        ),
        "keepdims0-unsqueeze": (
            _ln(keepdims0=True),
            "both means with keepdims=0 then an explicit Unsqueeze(axes=[-1])",
        ),
        "affine-swapped": (
            _ln(affine=SWAPPED),
            "the final Mul and Add with their operands swapped: Mul(g, n), Add(b, t)",
        ),
        "eps-swapped": (_ln(eps="ve = Add(eps, v)"), "Add(eps, v) instead of Add(v, eps)"),
        "sub-duplicated": (
            _ln(sub="d = Sub(x, m)\nd2 = Sub(x, m)", div="n = Div(d2, s)"),
            "x - mean computed twice, once per consumer",
        ),
        "axes-positive": (_ln(axes=rank_axis), f"axes=[{rank_axis}] instead of [-1]"),
        "axes-input": (
            _ln().replace("<axes = [-1]> (x)", "(x, last)").replace("<axes = [-1]> (p)", "(p, last)"),
            "opset 18: ReduceMean's axes as an input",
            18,
        ),
    }
    if few:  # the dtype and rank-2 cases keep five spellings, so the library's validity test stays fast
        forms = {
            k: v
            for k, v in forms.items()
            if k in ("common", "mul-square", "reciprocal", "keepdims0-unsqueeze", "affine-swapped")
        }
    if scalar_mean:
        forms["keepdims0-broadcast"] = (
            _ln().replace("<axes = [-1]>", "<axes = [-1], keepdims = 0>"),
            "rank 1: means with keepdims=0 are 0-D and broadcast implicitly against x",
        )
    return forms


def _ln_case(name, sig, forms, doc, gone=LN_GONE, **kw):
    fusion_case(
        f"{FAMILY}/{name}",
        transformer="LayerNormFusion",
        level="basic",
        signature=sig,
        forms=forms,
        consts=CONSTS,
        gone=gone,
        doc=doc,
        tags=("layernorm",),
        **kw,
    )


LN_DOC = """Decomposed LayerNorm over the last axis of x{shape}, times g plus b ({dtype}).

Common: ReduceMean, Sub, Pow(·, 2), ReduceMean, Add eps, Sqrt, Div, Mul g, Add b (torch.onnx's
spelling before opset 17). Uncommon: Mul(d, d), Reciprocal+Mul, Pow(·, -0.5), keepdims=0 +
Unsqueeze, swapped operands, a duplicated Sub, positive axes, opset-18 axes input (the rank-2 and
dtype cases keep Mul(d, d), Reciprocal, keepdims=0 and swapped operands); all compute the same values (Operators.md \
ReduceMean/Pow/
Reciprocal, Broadcasting.md)."""

#: For dtypes onnxruntime runs but does not fuse (observed with 1.32): no expectation, the forms
#: must still agree after every pass.
NOT_FUSED = "\nonnxruntime runs this dtype unfused (no expectation); every pass must keep the forms' values."

_ln_case(
    "layernorm-r3", "(T[N,4,8] x) => (T[N,4,8] y)", _ln_forms("2"), LN_DOC.format(shape=": [N, 4, 8]", dtype="float")
)
_ln_case(
    "layernorm-r2", "(T[N,8] x) => (T[N,8] y)", _ln_forms("1", few=True), LN_DOC.format(shape=": [N, 8]", dtype="float")
)
_ln_case(
    "layernorm-r1",
    "(T[8] x) => (T[8] y)",
    _ln_forms("0", scalar_mean=True),
    LN_DOC.format(shape=": [8]", dtype="float")
    + "\nRank 1 adds keepdims=0 means that broadcast as 0-D tensors without an Unsqueeze.",
    bindings=({}, {}),
)
_ln_case(
    "layernorm-f64",
    "(T[N,4,8] x) => (T[N,4,8] y)",
    _ln_forms("2", few=True),
    LN_DOC.format(shape=": [N, 4, 8]", dtype="double") + NOT_FUSED,
    dtype="double",
    gone=(),
)
_ln_case(
    "layernorm-f16",
    "(T[N,4,8] x) => (T[N,4,8] y)",
    _ln_forms("2", few=True),
    LN_DOC.format(shape=": [N, 4, 8]", dtype="float16"),
    dtype="float16",
)


#: Normalizations over other axes than the last: LayerNormalization-17 normalizes over ``[axis, rank)``, so the last
#: two axes are ``axis=-2`` (or 1 of rank 3), and axis 1 alone is no LayerNormalization at all. The same chain with
#: other ReduceMean ``axes``; a fusion must read them (it writes ``axis``, default -1) or leave the chain.
OTHER_AXES = {
    "layernorm-two-axes-r3": (
        "-2, -1",
        "1, 2",
        "over the last two axes of x: [N, 4, 8] (torch's F.layer_norm(x, (4, 8)) before opset 17, with a "
        "per-column scale g and shift b of shape [8])",
    ),
    "norm-axis1-r3": (
        "-2",
        "1",
        "over axis 1 of x: [N, 4, 8] (a channel-wise normalization of an NCL tensor), then g and b of shape [8]",
    ),
}
for _name, (_axes, _positive, _what) in OTHER_AXES.items():
    _ln_case(
        _name,
        "(T[N,4,8] x) => (T[N,4,8] y)",
        {
            "common": (_ln(axes=_axes), ""),
            "axes-positive": (_ln(axes=_positive), f"axes=[{_positive}] instead of [{_axes}]"),
            "mul-square": (_ln(axes=_axes, square="p = Mul(d, d)"), "Pow(d, 2) written Mul(d, d)"),
            "affine-swapped": (_ln(axes=_axes, affine=SWAPPED), "Mul(g, n), Add(b, t)"),
        },
        f"The decomposed LayerNorm chain {_what}: ReduceMean, Sub, Pow(·, 2), ReduceMean, Add eps, Sqrt, Div, Mul g, "
        "Add b. Uncommon: positive axes, Mul(d, d), swapped affine operands (Operators.md ReduceMean, "
        "LayerNormalization-17: the normalized axes are [axis, rank)). No expectation: a fusion into "
        "LayerNormalization must keep the values.",
        gone=(),
    )


def _rms(*, square="p = Pow(x, two)", div="n = Div(x, s)", scale="y = Mul(g, n)", keepdims0=False) -> str:
    """RMSNorm as HF T5/LLaMA exports write it: ``g * x / sqrt(mean(x^2) + eps)``."""
    var = (
        "v0 = ReduceMean <axes = [-1], keepdims = 0> (p)\nv = Unsqueeze(v0, last)"
        if keepdims0
        else "v = ReduceMean <axes = [-1]> (p)"
    )
    return "\n".join((square, var, "ve = Add(v, eps)", "s = Sqrt(ve)", div, scale))


RMS_FORMS = {
    "common": (_rms(), ""),
    "reciprocal": (
        _rms(div="r = Reciprocal(s)\nn = Mul(x, r)"),
        "torch.rsqrt exported as Sqrt then Reciprocal, then Mul",
    ),
    "mul-square": (_rms(square="p = Mul(x, x)"), "Pow(x, 2) written Mul(x, x)"),
    "keepdims0-unsqueeze": (_rms(keepdims0=True), "the mean with keepdims=0 then Unsqueeze(axes=[-1])"),
    "scale-swapped": (_rms(scale="y = Mul(n, g)"), "Mul(n, g) instead of Mul(g, n)"),
}
RMS_DOC = """RMSNorm over the last axis of x{shape}: g * x / sqrt(mean(x^2) + eps) ({dtype}).

Common: Pow, ReduceMean, Add, Sqrt, Div, Mul (HF T5 / LLaMA export). Uncommon: Reciprocal+Mul,
Mul(x, x), keepdims=0 + Unsqueeze, swapped scale operands (Operators.md, Broadcasting.md)."""


def _rms_case(name, sig, doc, forms=RMS_FORMS, gone=("ReduceMean", "Sqrt"), **kw):
    fusion_case(
        f"{FAMILY}/{name}",
        transformer="SimplifiedLayerNormFusion",
        level="extended",
        signature=sig,
        forms=forms,
        consts=CONSTS,
        gone=gone,
        doc=doc,
        tags=("rmsnorm",),
        **kw,
    )


_rms_case("rmsnorm-r3", "(T[N,4,8] x) => (T[N,4,8] y)", RMS_DOC.format(shape=": [N, 4, 8]", dtype="float"))
_rms_case("rmsnorm-r2", "(T[N,8] x) => (T[N,8] y)", RMS_DOC.format(shape=": [N, 8]", dtype="float"))
_rms_case(
    "rmsnorm-f16",
    "(T[N,4,8] x) => (T[N,4,8] y)",
    RMS_DOC.format(shape=": [N, 4, 8]", dtype="float16")
    + "\nThe fp16 export upcasts: Cast to float around the reduction, Cast back before the scale."
    + NOT_FUSED,
    forms={
        **RMS_FORMS,
        "cast-float": (
            "xf = Cast <to = 1> (x)\n"
            + _rms(
                square="p = Pow(xf, two_f32)", div="n = Div(xf, s)", scale="h = Cast <to = T> (n)\ny = Mul(g, h)"
            ).replace("Add(v, eps)", "Add(v, eps_f32)"),
            "LLaMA fp16 export: the chain in float between Cast(to=float) and Cast(to=float16)",
        ),
    },
    dtype="float16",
    gone=(),
)

SKIP_DOC = """Skip connection then LayerNorm over the last axis: LayerNormalization(x + skip, g, b), x, skip: {shape} \
({dtype}).

Common: Add then LayerNormalization (opset 17, torch.onnx's spelling of a BERT block end).
Uncommon: Add(skip, x) (Add is commutative), and the LayerNorm decomposed (Operators.md
LayerNormalization's function body)."""
SKIP_FORMS = {
    "common": ("a = Add(x, skip)\ny = LayerNormalization <axis = -1, epsilon = 1e-5> (a, g, b)", ""),
    "add-swapped": ("a = Add(skip, x)\ny = LayerNormalization <axis = -1, epsilon = 1e-5> (a, g, b)", "Add(skip, x)"),
    "decomposed": (
        "a = Add(x, skip)\n" + _ln().replace("(x)", "(a)").replace("Sub(x,", "Sub(a,"),
        "the LayerNorm as its decomposed chain (LayerNormFusion must run first)",
    ),
    "axis-positive": (
        "a = Add(x, skip)\ny = LayerNormalization <axis = {last}, epsilon = 1e-5> (a, g, b)",
        "axis={last} instead of -1",
    ),
}


def _skip_case(name, shape, last, dtype="float", gone=("Add", "LayerNormalization"), note=""):
    forms = {k: (body.replace("{last}", last), doc.replace("{last}", last)) for k, (body, doc) in SKIP_FORMS.items()}
    fusion_case(
        f"{FAMILY}/{name}",
        transformer="SkipLayerNormFusion",
        level="extended",
        signature=f"(T{shape} x, T{shape} skip) => (T{shape} y)",
        consts=CONSTS,
        gone=gone,
        doc=SKIP_DOC.format(shape=shape.replace(",", ", "), dtype=dtype) + note,
        tags=("layernorm",),
        forms=forms,
        dtype=dtype,
    )


_skip_case("skip-layernorm", "[N,4,8]", "2")
_skip_case(
    "skip-layernorm-r2",
    "[N,8]",
    "1",
    gone=(),
    note="\nonnxruntime fuses 3-D inputs only (observed with 1.32): no expectation at rank 2.",
)
_skip_case("skip-layernorm-f16", "[N,4,8]", "2", dtype="float16", gone=(), note=NOT_FUSED)
