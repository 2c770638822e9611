"""attributes/*: an attribute written with its default value vs omitted; auto_pad vs explicit pads.

Operators.md gives every optional attribute a default; writing the default explicitly is the same
node. Conv / MaxPool ``auto_pad = SAME_UPPER`` pads so that the output is ceil(in / stride), the
extra pad going at the end (Operators.md Conv, "auto_pad"), which equals explicit ``pads``. A pass
that pattern-matches on "attribute absent" misses the explicit spelling, and vice versa.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases import Case, register
from passcheck.cases.builders import rng, tensor, text_forms

PASSES = (
    "ort:disabled",
    "ort:basic",
    "ort:extended",
    "ort:all",
    "onnxscript:optimize",
    "onnx:infer-shapes",
    "onnx:infer-shapes-data-prop",
    "ort:symbolic-shape-infer",
)
BINDINGS = ({"N": 1}, {"N": 2})
OPSET = 13


def _weights(name):
    def make():
        r = rng("attributes", name)
        return [
            tensor("w", r.standard_normal((4, 2, 3, 3)).astype(np.float32)),
            tensor("w2", r.standard_normal((4, 2, 2, 2)).astype(np.float32)),
            tensor("b", r.standard_normal(4).astype(np.float32)),
            tensor("g", r.standard_normal((4, 3)).astype(np.float32)),
        ]

    return make


def _case(name, doc, sig, forms, **kw):
    register(
        Case(
            id=f"attributes/{name}",
            forms=text_forms(sig, "", forms, opset=OPSET, initializers=_weights(name)),
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset({"attributes"}) | kw.pop("tags", frozenset()),
            **kw,
        )
    )


_case(
    "conv-defaults",
    """Conv 3x3 of x: [N, 2, 5, 5], then Relu: defaults omitted vs written out.

Uncommon: strides, pads, dilations, group and auto_pad = NOTSET written with their default values
(Operators.md Conv: strides/dilations default 1, pads 0, group 1, auto_pad NOTSET).
Valid: every opset (here 13).""",
    "(float[N,2,5,5] x) => (float[N,4,3,3] y)",
    {
        "common": ("c = Conv(x, w, b)\ny = Relu(c)", ""),
        "explicit-defaults": (
            'c = Conv <strides = [1, 1], pads = [0, 0, 0, 0], dilations = [1, 1], group = 1, auto_pad = "NOTSET", kernel_shape = [3, 3]> (x, w, b)\ny = Relu(c)',
            "every default attribute written",
        ),
    },
    tags=frozenset({"conv"}),
)

_case(
    "gemm-defaults",
    """Gemm(a, g, bias) then Relu: alpha, beta, transA, transB omitted vs written as 1, 1, 0, 0.

Uncommon: Gemm's default attributes written out (Operators.md Gemm: alpha = beta = 1.0,
transA = transB = 0). Gemm fusions that check "no alpha attribute" skip the explicit form.
Valid: opset 11+ (here 13).""",
    "(float[N,4] a) => (float[N,3] y)",
    {
        "common": ("c = Gemm(a, g)\ny = Relu(c)", ""),
        "explicit-defaults": (
            "c = Gemm <alpha = 1.0, beta = 1.0, transA = 0, transB = 0> (a, g)\ny = Relu(c)",
            "alpha=1, beta=1, transA=0, transB=0",
        ),
        "transposed": (
            "gt = Transpose(g)\nc = Gemm <transB = 1> (a, gt)\ny = Relu(c)",
            "B pre-transposed with transB=1",
        ),
    },
    tags=frozenset({"gemm"}),
)

_case(
    "conv-same-upper-odd",
    """Conv 3x3 stride 1 of x: [N, 2, 5, 5]: auto_pad = SAME_UPPER vs pads [1, 1, 1, 1].

Uncommon: auto_pad (Operators.md Conv: SAME_UPPER pads to output = ceil(input / stride); odd total
padding puts the extra at the end). For a 3x3 kernel the padding is symmetric.
Valid: every opset (here 13).""",
    "(float[N,2,5,5] x) => (float[N,4,5,5] y)",
    {
        "common": ("y = Conv <pads = [1, 1, 1, 1]> (x, w, b)", ""),
        "same-upper": ('y = Conv <auto_pad = "SAME_UPPER"> (x, w, b)', "auto_pad=SAME_UPPER"),
        "same-lower": (
            'y = Conv <auto_pad = "SAME_LOWER"> (x, w, b)',
            "auto_pad=SAME_LOWER (same as upper for odd kernels)",
        ),
    },
    tags=frozenset({"conv", "padding"}),
)

_case(
    "conv-same-upper-even",
    """Conv 2x2 stride 1 of x: [N, 2, 5, 5]: auto_pad = SAME_UPPER vs asymmetric pads [0, 0, 1, 1].

Uncommon: auto_pad with an even kernel, whose padding is asymmetric: SAME_UPPER puts the one pad at
the end of each axis (Operators.md Conv, auto_pad). SAME_LOWER would put it at the beginning.
Valid: every opset (here 13).""",
    "(float[N,2,5,5] x) => (float[N,4,5,5] y)",
    {
        "common": ("y = Conv <pads = [0, 0, 1, 1]> (x, w2, b)", ""),
        "same-upper": ('y = Conv <auto_pad = "SAME_UPPER"> (x, w2, b)', "auto_pad=SAME_UPPER"),
    },
    tags=frozenset({"conv", "padding"}),
)

_case(
    "maxpool-same-upper",
    """MaxPool 2x2 stride 2 of x: [N, 2, 5, 5]: auto_pad = SAME_UPPER vs pads [0, 0, 1, 1].

Uncommon: MaxPool's auto_pad (Operators.md MaxPool: output ceil(5 / 2) = 3, the pad at the end;
padded cells never win the max).
Valid: opset 12+ (here 13).""",
    "(float[N,2,5,5] x) => (float[N,2,3,3] y)",
    {
        "common": ("y = MaxPool <kernel_shape = [2, 2], strides = [2, 2], pads = [0, 0, 1, 1]> (x)", ""),
        "same-upper": (
            'y = MaxPool <kernel_shape = [2, 2], strides = [2, 2], auto_pad = "SAME_UPPER"> (x)',
            "auto_pad=SAME_UPPER",
        ),
        "ceil-mode": (
            "y = MaxPool <kernel_shape = [2, 2], strides = [2, 2], ceil_mode = 1> (x)",
            "ceil_mode=1, no pads",
        ),
    },
    tags=frozenset({"pool", "padding"}),
)

_case(
    "leakyrelu-alpha",
    """LeakyRelu of x: [N, 4]: alpha omitted vs alpha = 0.01 written.

Uncommon: the default alpha written out (Operators.md LeakyRelu: alpha defaults to 0.01).
Valid: every opset (here 13).""",
    "(float[N,4] x) => (float[N,4] y)",
    {"common": ("y = LeakyRelu(x)", ""), "explicit-default": ("y = LeakyRelu <alpha = 0.01> (x)", "alpha=0.01")},
)
