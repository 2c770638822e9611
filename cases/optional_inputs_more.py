"""optional-input/*: optional inputs written ``""`` vs omitted, beyond Conv.

ONNX IR (docs/IR.md, "Optional Inputs and Outputs"): an optional input is absent when it is left
off the end of the input list or named ``""``; a ``""`` may sit in the middle of the list to skip
one optional input and give a later one. Each operator doc (Operators.md) marks which inputs are
optional. A pass that counts inputs, or reads position ``i`` without checking the name, takes the
"present" path on a model whose slot is empty.
"""

from __future__ import annotations

from passcheck.cases import Case, register
from passcheck.cases.builders import text_forms

FAMILY = "optional-input"
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
BINDINGS = ({"N": 1}, {"N": 3})


def _case(name: str, doc: str, sig: str, inits: str, forms: dict[str, tuple[str, str]], opset: int, **kw) -> None:
    """Register ``FAMILY/name``; every form shares the signature ``sig`` and initializers ``inits``."""
    register(
        Case(
            id=f"{FAMILY}/{name}",
            forms=text_forms(sig, inits, forms, opset=opset),
            doc=doc,
            opset=opset,
            bindings=kw.pop("bindings", BINDINGS),
            passes=PASSES,
            tags=frozenset({"optional-input"}) | kw.pop("tags", frozenset()),
            **kw,
        )
    )


_case(
    "gemm-c",
    """Gemm(a, b) without C vs Gemm(a, b, "").

Uncommon: C written as "" (IR.md "Optional Inputs and Outputs"; Operators.md Gemm: C optional since
opset 11). A Gemm→MatMul/Add rewrite or a bias fusion must see no bias in both forms.
Valid: opset 11+ (here 13), ir_version 7, every onnx >= 1.8.""",
    "(float[N,4] a) => (float[N,3] y)",
    "<float[4,3] b = {1.,2.,3.,4.,5.,6.,7.,8.,9.,10.,11.,12.}>",
    {"common": ("y = Gemm(a, b)", ""), "empty-name": ('y = Gemm(a, b, "")', 'C given as ""')},
    13,
    tags=frozenset({"gemm"}),
)

_case(
    "clip-max-only",
    """Clip with only max: Min(x, hi) vs Clip(x, "", hi).

Uncommon: the min slot written as "" in the middle of the input list (IR.md "Optional Inputs and
Outputs"; Operators.md Clip, opset 11+: min and max optional scalars).
Valid: opset 11+ (here 13), every onnx >= 1.8.""",
    "(float[N,4] x) => (float[N,4] y)",
    "<float hi = {0.25}>",
    {
        "common": ("y = Min(x, hi)", ""),
        "middle-empty": ('y = Clip(x, "", hi)', 'Clip(x, "", max)'),
        "max-only-trailing": ('y = Clip(x, "", hi)', "the same Clip, asserting the min slot is skipped"),
    },
    13,
    tags=frozenset({"clip"}),
)

_case(
    "clip-min-only",
    """Clip with only min: Clip(x, lo) vs Clip(x, lo, "") vs Max(x, lo).

Uncommon: the trailing max slot written as "" (IR.md "Optional Inputs and Outputs"; Operators.md Clip).
Valid: opset 11+ (here 13), every onnx >= 1.8.""",
    "(float[N,4] x) => (float[N,4] y)",
    "<float lo = {-0.25}>",
    {
        "common": ("y = Clip(x, lo)", ""),
        "trailing-empty": ('y = Clip(x, lo, "")', 'Clip(x, min, "")'),
        "as-max": ("y = Max(x, lo)", "the same bound as Max"),
    },
    13,
    tags=frozenset({"clip"}),
)

_case(
    "clip-none",
    """Clip with no bounds: Clip(x) vs Clip(x, "", "") (an identity).

Uncommon: both optional slots written as "" (IR.md "Optional Inputs and Outputs"; Operators.md
Clip: with no min/max the output equals the input). Clip→Relu6 style fusions must not invent bounds.
Valid: opset 11+ (here 13).""",
    "(float[N,4] x) => (float[N,4] y)",
    "",
    {"common": ("y = Clip(x)", ""), "both-empty": ('y = Clip(x, "", "")', 'Clip(x, "", "")')},
    13,
    tags=frozenset({"clip"}),
)

_case(
    "pad-constant-value",
    """Pad without constant_value: Pad(x, pads) vs Pad(x, pads, "") vs Pad(x, pads, "", axes).

Uncommon: constant_value as "" and, at opset 18, a "" in the middle followed by axes (IR.md
"Optional Inputs and Outputs"; Operators.md Pad, opset 18: constant_value and axes optional,
pads lists begins then ends for the axes given).
Valid: opset 18+ for axes, ir_version 8, onnx >= 1.13.""",
    "(float[N,3,4] x) => (float[N,5,6] y)",
    "<int64[6] pads = {0,1,1,0,1,1}, int64[4] pads2 = {1,1,1,1}, int64[2] axes = {1,2}>",
    {
        "common": ("y = Pad(x, pads)", ""),
        "trailing-empty": ('y = Pad(x, pads, "")', 'constant_value as ""'),
        "middle-empty-axes": ('y = Pad(x, pads2, "", axes)', 'Pad(x, pads, "", axes)'),
    },
    18,
    tags=frozenset({"pad"}),
)

_case(
    "resize-scales-sizes",
    """Nearest Resize ×2 of the last two axes: scales vs sizes vs a given but unused roi.

Uncommon: roi and scales written as "" to reach sizes (a "" run in the middle); axes attribute
(opset 18); an roi tensor present but ignored outside tf_crop_and_resize (Operators.md Resize,
opset 18; IR.md "Optional Inputs and Outputs").
Valid: opset 18+, onnx >= 1.13.""",
    "(float[N,2,3,3] x) => (float[N,2,6,6] y)",
    "<float[4] sc = {1.,1.,2.,2.}, float[2] sc2 = {2.,2.}, int64[2] sz = {6,6}, float[8] roi = {0.,0.,0.,0.,1.,1.,1.,1.}>",
    {
        "common": ('y = Resize <mode = "nearest"> (x, "", sc)', ""),
        "sizes-axes": (
            'y = Resize <mode = "nearest", axes = [2, 3]> (x, "", "", sz)',
            'Resize(x, "", "", sizes) with axes',
        ),
        "scales-axes": ('y = Resize <mode = "nearest", axes = [2, 3]> (x, "", sc2)', "scales for the listed axes only"),
        "roi-unused": (
            'y = Resize <mode = "nearest"> (x, roi, sc)',
            "an roi given but unused (asymmetric mode ignores it)",
        ),
    },
    18,
    tags=frozenset({"resize"}),
)

_case(
    "slice-axes-steps",
    """Slice rows 1..5 of x: [6, N]: axes/steps omitted, "", or explicit defaults.

Uncommon: axes written as "" in the middle with steps given, trailing "" slots (IR.md
"Optional Inputs and Outputs"; Operators.md Slice, opset 13: axes default [0, …, len(starts)-1],
steps default 1).
Valid: opset 10+ (here 13).""",
    "(float[6,N] x) => (float[4,N] y)",
    "<int64[1] st = {1}, int64[1] en = {5}, int64[1] ax = {0}, int64[1] one = {1}>",
    {
        "common": ("y = Slice(x, st, en)", ""),
        "empty-axes-steps": ('y = Slice(x, st, en, "", one)', 'Slice(x, starts, ends, "", steps)'),
        "trailing-empty": ('y = Slice(x, st, en, "", "")', 'both optional slots as ""'),
        "explicit": ("y = Slice(x, st, en, ax, one)", "axes and steps written with their defaults"),
    },
    13,
    tags=frozenset({"slice"}),
)

_case(
    "dropout-ratio",
    """Inference Dropout (an identity): Dropout(x) vs Dropout(x, "", "") vs Dropout(x, ratio).

Uncommon: ratio and training_mode as "", or a ratio given while training_mode is absent
(Operators.md Dropout, opset 13: training_mode defaults to false, then the output equals the input).
Valid: opset 12+ (here 13).""",
    "(float[N,4] x) => (float[N,4] y)",
    "<float r = {0.5}>",
    {
        "common": ("y = Dropout(x)", ""),
        "both-empty": ('y = Dropout(x, "", "")', 'Dropout(x, "", "")'),
        "ratio-only": ("y = Dropout(x, r)", "ratio 0.5 given, training_mode absent"),
    },
    13,
    tags=frozenset({"dropout"}),
)

_case(
    "layernorm-bias",
    """LayerNormalization over the last axis: bias omitted vs "" vs a zero bias.

Uncommon: B as "" (IR.md "Optional Inputs and Outputs"; Operators.md LayerNormalization, opset 17:
B optional). LayerNorm fusions and the SkipLayerNorm/bias fusions must treat both as no bias.
Valid: opset 17+, ir_version 8, onnx >= 1.12.""",
    "(float[N,4] x) => (float[N,4] y)",
    "<float[4] s = {1.,0.5,2.,1.5}, float[4] z = {0.,0.,0.,0.}>",
    {
        "common": ("y = LayerNormalization <axis = -1> (x, s)", ""),
        "empty-name": ('y = LayerNormalization <axis = -1> (x, s, "")', 'B as ""'),
        "zero-bias": ("y = LayerNormalization <axis = -1> (x, s, z)", "a present all-zero bias"),
    },
    17,
    tags=frozenset({"layernorm"}),
)

_case(
    "reducesum-axes",
    """ReduceSum over all axes: axes omitted vs "" vs every axis listed.

Uncommon: axes as "" (IR.md "Optional Inputs and Outputs"; Operators.md ReduceSum, opset 13: with
axes absent and noop_with_empty_axes = 0 every axis is reduced).
Valid: opset 13+ (axes an input).""",
    "(float[N,4] x) => (float[1,1] y)",
    "<int64[2] all = {0,1}>",
    {
        "common": ("y = ReduceSum(x)", ""),
        "empty-name": ('y = ReduceSum(x, "")', 'axes as ""'),
        "explicit": (
            "y = ReduceSum <noop_with_empty_axes = 0> (x, all)",
            "every axis listed, default attribute explicit",
        ),
    },
    13,
    tags=frozenset({"reduce"}),
)

_case(
    "split-split",
    """Split of x: [N, 4] into two halves on axis 1: split omitted vs "" vs [2, 2].

Uncommon: split as "" (IR.md "Optional Inputs and Outputs"; Operators.md Split, opset 13: without
split the axis is cut into equal parts, one per output).
Valid: opset 13..17 (opset 18 also needs num_outputs when split is absent).""",
    "(float[N,4] x) => (float[N,2] y1, float[N,2] y2)",
    "<int64[2] parts = {2,2}>",
    {
        "common": ("y1, y2 = Split <axis = 1> (x)", ""),
        "empty-name": ('y1, y2 = Split <axis = 1> (x, "")', 'split as ""'),
        "explicit": ("y1, y2 = Split <axis = 1> (x, parts)", "equal parts written out"),
    },
    13,
    tags=frozenset({"split"}),
)

_case(
    "squeeze-axes",
    """Squeeze of x: [1, 3, 1, 4]: axes omitted vs "" vs [0, 2].

Uncommon: axes as "" (IR.md "Optional Inputs and Outputs"; Operators.md Squeeze, opset 13: without
axes every dim of size 1 is removed).
Valid: opset 13+ (axes an input).""",
    "(float[1,3,1,4] x) => (float[3,4] y)",
    "<int64[2] ax = {0,2}>",
    {
        "common": ("y = Squeeze(x)", ""),
        "empty-name": ('y = Squeeze(x, "")', 'axes as ""'),
        "explicit": ("y = Squeeze(x, ax)", "the size-1 axes listed"),
    },
    13,
    bindings=({}, {}),
    tags=frozenset({"squeeze"}),
)
