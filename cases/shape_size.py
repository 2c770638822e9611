"""shape/*: more Shape and Size spellings (start only, end only, rank-0 input, Size vs ReduceProd).

Operators.md Shape (opset 15): ``start`` / ``end`` select dims ``[start, end)``, negative values
count from the back, out-of-range values clamp to [0, rank]. Shape of a 0-D tensor is an empty
1-D int64 tensor. Operators.md Size: the element count as a 0-D int64 tensor, the same as
ReduceProd of the shape with keepdims = 0 (ReduceProd, opset 13: integer types allowed).
"""

from __future__ import annotations

from passcheck.cases import Case, register
from passcheck.cases.builders import text_forms

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
BINDINGS = ({"N": 1, "M": 2}, {"N": 3, "M": 5})
OPSET = 18


def _case(name, doc, sig, consts, forms, **kw):
    register(
        Case(
            id=f"shape/{name}",
            forms=text_forms(sig, consts, forms, opset=OPSET),
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset({"shape", "folding"}) | kw.pop("tags", frozenset()),
            **kw,
        )
    )


_case(
    "start-only-reshape",
    """Reshape x: [N, 3, 4] to [-1, 3, 4] with the tail of its own shape: Slice vs Shape(start=1).

Uncommon: Shape with only start (Operators.md Shape, opset 15); the selected dims are static, so the
target folds to [-1, 3, 4] whatever N is (seed 003, §2).
Valid: opset 15+ (here 18, ir_version 8), onnx >= 1.10.""",
    "(float[N,3,4] x) => (float[N,3,4] y)",
    "<int64[1] one = {1}, int64[1] big = {100}, int64[1] zero = {0}, int64[1] m1 = {-1}>",
    {
        "common": (
            "full = Shape(x)\ntail = Slice(full, one, big, zero)\nt = Concat <axis = 0> (m1, tail)\ny = Reshape(x, t)",
            "",
        ),
        "start-only": (
            "tail = Shape <start = 1> (x)\nt = Concat <axis = 0> (m1, tail)\ny = Reshape(x, t)",
            "Shape(x, start=1)",
        ),
        "start-negative": (
            "tail = Shape <start = -2> (x)\nt = Concat <axis = 0> (m1, tail)\ny = Reshape(x, t)",
            "Shape(x, start=-2)",
        ),
    },
)

_case(
    "end-only",
    """The leading dims of x: [N, 3, M, 4] up to the last: Slice vs Shape(end=-1) vs Shape(end=3).

Uncommon: Shape with only end, negative or positive (Operators.md Shape, opset 15).
Valid: opset 15+ (here 18).""",
    "(float[N,3,M,4] x) => (int64[3] s)",
    "<int64[1] zero = {0}, int64[1] m1 = {-1}>",
    {
        "common": ("full = Shape(x)\ns = Slice(full, zero, m1, zero)", ""),
        "end-negative": ("s = Shape <end = -1> (x)", "Shape(x, end=-1)"),
        "end-positive": ("s = Shape <end = 3> (x)", "Shape(x, end=3)"),
        "clamped": ("s = Shape <start = -10, end = -1> (x)", "Shape(x, start=-10, end=-1): start clamps to 0"),
    },
)

_case(
    "empty-range",
    """An empty selection of the shape of x: [N, 3], concatenated with Shape(y): Shape(x, 1, 1) vs Shape(x, 5, 9) vs nothing.

Uncommon: Shape ranges that select nothing, in range and clamped (Operators.md Shape, opset 15: an
empty range gives an empty 1-D tensor); Concat with a zero-length input.
Valid: opset 15+ (here 18).""",
    "(float[N,3] x, float[M] y) => (int64[1] s)",
    "",
    {
        "common": ("s = Shape(y)", ""),
        "empty-in-range": (
            "e = Shape <start = 1, end = 1> (x)\nsy = Shape(y)\ns = Concat <axis = 0> (e, sy)",
            "Shape(x, start=1, end=1) (empty) ++ Shape(y)",
        ),
        "empty-clamped": (
            "e = Shape <start = 5, end = 9> (x)\nsy = Shape(y)\ns = Concat <axis = 0> (sy, e)",
            "Shape(x, start=5, end=9) clamps to empty",
        ),
    },
)

_case(
    "rank0-input",
    """The shape of a 0-D input prepended to Shape(y): Shape(scalar) is an empty 1-D tensor.

Uncommon: Shape of a rank-0 tensor, with and without start/end (Operators.md Shape; IR.md "Tensor
shapes": a scalar has an empty shape).
Valid: opset 15+ for start/end (here 18).""",
    "(float x, float[M] y) => (int64[1] s)",
    "",
    {
        "common": ("s = Shape(y)", ""),
        "rank0": ("e = Shape(x)\nsy = Shape(y)\ns = Concat <axis = 0> (e, sy)", "Shape(<0-D x>) ++ Shape(y)"),
        "rank0-start-end": (
            "e = Shape <start = -1, end = 1> (x)\nsy = Shape(y)\ns = Concat <axis = 0> (sy, e)",
            "Shape(<0-D x>, start=-1, end=1)",
        ),
    },
)

_case(
    "size-vs-reduceprod",
    """Element count of x: [N, 3, M]: Size vs ReduceProd(Shape(x)) vs the product of Shape slices.

Uncommon: Size (Operators.md Size) and ReduceProd of an int64 shape (Operators.md ReduceProd,
opset 13 / 18), both 0-D int64.
Valid: opset 18 (ReduceProd axes as input), onnx >= 1.13.""",
    "(float[N,3,M] x) => (int64 n)",
    "",
    {
        "common": ("n = Size(x)", ""),
        "reduceprod": ("s = Shape(x)\nn = ReduceProd <keepdims = 0> (s)", "ReduceProd(Shape(x), keepdims=0)"),
        "sliced-product": (
            "a = Shape <end = 1> (x)\nb = Shape <start = 1> (x)\npa = ReduceProd <keepdims = 0> (a)\npb = ReduceProd <keepdims = 0> (b)\nn = Mul(pa, pb)",
            "product of Shape(x, end=1) and Shape(x, start=1)",
        ),
    },
)
