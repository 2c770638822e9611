"""broadcast/*: scalar vs [1] vs [1, 1] operands, implicit broadcast vs Expand, zero-sized dims.

Broadcasting.md (multidirectional broadcasting): shapes are right-aligned and a dim of 1 stretches,
so a 0-D, [1] or [1, 1] operand adds the same value to x: [N, 4]. Operators.md Expand broadcasts
explicitly to a shape. IR.md "Tensor shapes": a dim may be 0 (an empty tensor); Concat, Slice and
ReduceSum (empty reduction gives 0) accept such tensors.
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
BINDINGS = ({"N": 1}, {"N": 3})
OPSET = 15


def _case(name, doc, sig, consts, forms, **kw):
    register(
        Case(
            id=f"broadcast/{name}",
            forms=text_forms(sig, consts, forms, opset=OPSET),
            doc=doc,
            opset=OPSET,
            bindings=BINDINGS,
            passes=PASSES,
            tags=frozenset({"broadcast"}) | kw.pop("tags", frozenset()),
            **kw,
        )
    )


_case(
    "scalar-rank",
    """x: [N, 4] + 0.5 then * 2: the constants as 0-D, [1] and [1, 1] tensors.

Uncommon: a [1] or [1, 1] operand where a scalar would do (Broadcasting.md: right-aligned, 1
stretches). Add/Mul fusions and constant folding that require a 0-D scalar skip the others.
Valid: opset 7+ (here 15).""",
    "(float[N,4] x) => (float[N,4] y)",
    "<float a0 = {0.5}, float[1] a1 = {0.5}, float[1,1] a2 = {0.5}, float k0 = {2.}, float[1] k1 = {2.}, float[1,1] k2 = {2.}>",
    {
        "common": ("s = Add(x, a0)\ny = Mul(s, k0)", ""),
        "rank1": ("s = Add(x, a1)\ny = Mul(s, k1)", "[1] operands"),
        "rank2": ("s = Add(x, a2)\ny = Mul(s, k2)", "[1, 1] operands"),
        "mixed-order": ("s = Add(a2, x)\ny = Mul(k1, s)", "operands first, mixed ranks"),
    },
)

_case(
    "implicit-vs-expand",
    """x: [N, 4] + b: [4]: implicit broadcast vs Expand(b, Shape(x)) vs Expand to [1, 4].

Uncommon: an explicit Expand before an elementwise op (Operators.md Expand: bidirectional
broadcast to the given shape). Expand elimination must keep the value.
Valid: opset 8+ (here 15).""",
    "(float[N,4] x) => (float[N,4] y)",
    "<float[4] b = {1.,2.,3.,4.}, int64[2] s14 = {1,4}>",
    {
        "common": ("y = Add(x, b)", ""),
        "expand-to-x": ("s = Shape(x)\nbe = Expand(b, s)\ny = Add(x, be)", "Expand(b, Shape(x))"),
        "expand-static": ("be = Expand(b, s14)\ny = Add(x, be)", "Expand(b, [1, 4])"),
    },
    tags=frozenset({"expand"}),
)

_case(
    "expand-ones",
    """Expand of x: [N, 1, 3] to [N, 2, 3] with a target of ones: [1, 2, 1] vs [1, 2, 3] vs Tile.

Uncommon: an Expand target shorter-than-input dims of 1 (Operators.md Expand: a 1 in the target
keeps the input dim, so [1, 2, 1] leaves N and 3 alone); Tile as the same repetition.
Valid: opset 13+.""",
    "(float[N,1,3] x) => (float[N,2,3] y)",
    "<int64[3] t121 = {1,2,1}, int64[3] t123 = {1,2,3}, int64[3] reps = {1,2,1}>",
    {
        "common": ("y = Expand(x, t123)", ""),
        "ones-target": ("y = Expand(x, t121)", "target [1, 2, 1]"),
        "tile": ("y = Tile(x, reps)", "Tile(x, [1, 2, 1])"),
    },
    tags=frozenset({"expand"}),
)

_case(
    "zero-sized-concat",
    """x: [N, 3] concatenated with an empty [N, 0] slice of itself vs x alone.

Uncommon: a zero-sized dimension inside the graph (IR.md "Tensor shapes": dims may be 0;
Operators.md Concat accepts empty inputs). Passes that drop or fold empty tensors must keep y = x + 1.
Valid: opset 13+.""",
    "(float[N,3] x) => (float[N,3] y)",
    "<int64[1] zero = {0}, int64[1] one = {1}, float k = {1.}>",
    {
        "common": ("y = Add(x, k)", ""),
        "concat-empty": (
            "e = Slice(x, zero, zero, one)\nc = Concat <axis = 1> (e, x)\ny = Add(c, k)",
            "Concat(x[:, 0:0], x)",
        ),
    },
    tags=frozenset({"zero-size"}),
)

_case(
    "zero-sized-reduce",
    """Row sums of x: [N, 0] (all zero): ReduceSum over the empty axis vs ConstantOfShape zeros.

Uncommon: a graph input with a 0 dim and a reduction over it (IR.md "Tensor shapes"; Operators.md
ReduceSum: an empty reduction is 0; Shape's end, opset 15).
Valid: opset 15+.""",
    "(float[N,0] x) => (float[N] y)",
    "<int64[1] one = {1}>",
    {
        "common": ("s = Shape <end = 1> (x)\ny = ConstantOfShape <value = float[1] {0.}> (s)", ""),
        "reduce-empty": ("y = ReduceSum <keepdims = 0> (x, one)", "ReduceSum over the 0-sized axis"),
    },
    tags=frozenset({"zero-size"}),
)
