"""non-tensor/*: sequence and optional values in the middle of a tensor computation (seed 001).

Operators.md (opset 11+) SequenceConstruct / SequenceAt / ConcatFromSequence / SplitToSequence
build and read tensor sequences; Optional / OptionalGetElement (opset 15, tensors since 18) wrap
and unwrap a value. Passes that assume every value is a tensor must carry these through unchanged.
"""

from __future__ import annotations

from passcheck.cases import Case, register
from passcheck.cases.builders import text_forms

OPSET = 18
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


def _case(name, doc, sig, consts, forms):
    register(
        Case(
            id=f"non-tensor/{name}",
            forms=text_forms(sig, consts, forms, opset=OPSET),
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset({"non-tensor", "sequence"}),
        )
    )


_case(
    "sequence-at",
    """a + 2b: direct vs through SequenceConstruct(a, b) and SequenceAt (positive and negative positions).

Uncommon: a tensor sequence built and read back (Operators.md SequenceConstruct, SequenceAt:
position may be negative).
Valid: opset 11+ (here 18, ir_version 8).""",
    "(float[N,3] a, float[N,3] b) => (float[N,3] y)",
    "<int64 p0 = {0}, int64 p1 = {-1}, float two = {2.}>",
    {
        "common": ("b2 = Mul(b, two)\ny = Add(a, b2)", ""),
        "sequence": (
            "s = SequenceConstruct(a, b)\na1 = SequenceAt(s, p0)\nb1 = SequenceAt(s, p1)\nb2 = Mul(b1, two)\ny = Add(a1, b2)",
            "SequenceConstruct + SequenceAt(0), SequenceAt(-1)",
        ),
    },
)

_case(
    "split-to-sequence",
    """The two halves of x: [N, 4] multiplied: Split vs SplitToSequence + SequenceAt.

Uncommon: SplitToSequence (Operators.md SplitToSequence: split sizes as a 1-D input, keepdims).
Valid: opset 11+ (here 18).""",
    "(float[N,4] x) => (float[N,2] y)",
    "<int64[2] sp = {2,2}, int64 p0 = {0}, int64 p1 = {1}>",
    {
        "common": ("h1, h2 = Split <axis = 1> (x, sp)\ny = Mul(h1, h2)", ""),
        "to-sequence": (
            "s = SplitToSequence <axis = 1> (x, sp)\nh1 = SequenceAt(s, p0)\nh2 = SequenceAt(s, p1)\ny = Mul(h1, h2)",
            "SplitToSequence then SequenceAt",
        ),
    },
)

_case(
    "concat-from-sequence",
    """Concat(a, b) on axis 0 vs ConcatFromSequence(SequenceConstruct(a, b)).

Uncommon: ConcatFromSequence (Operators.md ConcatFromSequence, new_axis = 0).
Valid: opset 11+ (here 18).""",
    "(float[N,3] a, float[N,3] b) => (float[M,3] y)",
    "",
    {
        "common": ("y = Concat <axis = 0> (a, b)", ""),
        "from-sequence": ("s = SequenceConstruct(a, b)\ny = ConcatFromSequence <axis = 0> (s)", "ConcatFromSequence"),
    },
)

_case(
    "optional-get-element",
    """Relu(x) vs Relu(OptionalGetElement(Optional(x))).

Uncommon: a tensor wrapped in an optional and unwrapped (Operators.md Optional, OptionalGetElement-18:
accepts an optional or a plain tensor).
Valid: opset 18+ (ir_version 8), onnx >= 1.13.""",
    "(float[N,3] x) => (float[N,3] y)",
    "",
    {
        "common": ("y = Relu(x)", ""),
        "optional": ("o = Optional(x)\ne = OptionalGetElement(o)\ny = Relu(e)", "Optional then OptionalGetElement"),
        "get-element-of-tensor": (
            "e = OptionalGetElement(x)\ny = Relu(e)",
            "OptionalGetElement of a plain tensor (opset 18)",
        ),
    },
)
