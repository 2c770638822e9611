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


def _case(name, doc, sig, consts, forms, *, passes=PASSES, bindings=BINDINGS, **kw):
    register(
        Case(
            id=f"broadcast/{name}",
            forms=text_forms(sig, consts, forms, opset=OPSET),
            doc=doc,
            opset=OPSET,
            bindings=bindings,
            passes=passes,
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
    "<float a0 = {0.5}, float[1] a1 = {0.5}, float[1,1] a2 = {0.5}, float k0 = {2.}, float[1] k1 = {2.}, "
    "float[1,1] k2 = {2.}>",
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


# Unidirectional broadcasting (Broadcasting.md): "tensor B is unidirectional broadcastable to tensor A" — B may be
# smaller than A, never larger, so which operand is the target matters, unlike the multidirectional ops above. The
# target A may itself be the output of a broadcast (an Expand of a value smaller than B): valid, since the op reads
# A's shape. A pass that drops that Expand (the op "broadcasts anyway") turns the target into the smaller operand.
# The ops whose schemas state unidirectional broadcasting (onnx.defs: PRelu-7+, Gemm-7+ for C, LayerNormalization-17
# and RMSNormalization-23 for the scale) — PRelu and Gemm here, the two of them a binary-op rule can meet.
UNIDIRECTIONAL_PASSES = (*PASSES, "onnxscript:rewrite", "onnxscript:rewrite-opt-in")


def _unidirectional(name, doc, sig, consts, forms):
    """A ``broadcast/unidirectional-<name>`` case: static shapes (two empty bindings), the opt-in rules' passes too."""
    tags = frozenset({"expand", "unidirectional"})
    _case(f"unidirectional-{name}", doc, sig, consts, forms, passes=UNIDIRECTIONAL_PASSES, bindings=({}, {}), tags=tags)


_unidirectional(
    "prelu",
    """PRelu(Expand(x, [2, 3]), slope), x: [3], slope: [2, 3]: the target X broadcast from a value smaller than slope.

Operators.md PRelu-9/16: "slope should be unidirectional broadcastable to input tensor X", the output X's shape;
Expand-8/13 makes X [2, 3] from x [3], so slope [2, 3] is valid. Dropping the Expand leaves PRelu(x, slope), which
the schema forbids (slope larger than X). Uncommon: PRelu's definition written out (f(x) = slope * x for x < 0,
x otherwise) on the same expanded X.
Valid: opset 9+ (here 15).""",
    "(float[3] x, float[2,3] slope) => (float[2,3] y)",
    "<int64[2] s23 = {2,3}, float zero = {0.}>",
    {
        "common": ("e = Expand(x, s23)\ny = PRelu(e, slope)", ""),
        "where": (
            "e = Expand(x, s23)\nneg = Less(e, zero)\nm = Mul(e, slope)\ny = Where(neg, m, e)",
            "Where(X < 0, slope * X, X)",
        ),
    },
)

_unidirectional(
    "gemm",
    """Gemm(Expand(a, [2, 4]), b, c), a: [4], b: [4, 3], c: [2, 3]: A broadcast from a vector, C as large as Y.

Operators.md Gemm-13: A is 2-D (M x K), "tensor C should be unidirectional broadcastable to tensor A * B"; here
Expand-8/13 makes A [2, 4] from a [4] and C is the full [2, 3]. Dropping the Expand makes A 1-D, which Gemm
forbids (MatMul would take it, with a 1-D result). Uncommon: MatMul and Add on the same expanded A (Gemm's
definition with alpha = beta = 1).
Valid: opset 13+ (here 15).""",
    "(float[4] a, float[4,3] b, float[2,3] c) => (float[2,3] y)",
    "<int64[2] s24 = {2,4}>",
    {
        "common": ("e = Expand(a, s24)\ny = Gemm(e, b, c)", ""),
        "matmul-add": ("e = Expand(a, s24)\nm = MatMul(e, b)\ny = Add(m, c)", "MatMul(A, B) + C"),
    },
)
