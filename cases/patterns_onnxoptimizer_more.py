"""pattern-onnxoptimizer/* (continued): the patterns of the onnxoptimizer passes no other base reaches.

A run of each available ``onnxoptimizer:pass-NAME`` over the first form of every hand-written case (session 20,
onnxoptimizer 0.4.2) left 13 passes that changed no base beyond the round trip every pass makes. Each case here is
the pattern the pass's own source (``onnxoptimizer/passes/<name>.h`` in the wheel: its ``patternMatchPredicate``
and ``runTransform``) says it matches, in its common spelling, with spellings its operator schemas allow:

- ``eliminate_nop_cast``: a Cast whose ``to`` is its input's element type (Operators.md Cast);
- ``eliminate_nop_flatten``: Flatten of a rank-2 input at ``axis`` 1 (or -1; Operators.md Flatten: the output is
  ``[d_0 … d_(axis-1), d_axis …]`` flattened into two dims);
- ``eliminate_nop_pad``: a Pad whose ``pads`` are all 0 (Operators.md Pad-13);
- ``eliminate_nop_concat``: a Concat of one input (Operators.md Concat: 1 to ∞ inputs);
- ``eliminate_nop_split``: a Split with one output (Operators.md Split-13: ``split`` optional, equal parts);
- ``fuse_consecutive_reduce_unsqueeze``: ``Unsqueeze(Reduce(x, axes, keepdims=0), axes)`` on the same axes, as
  ``Reduce(x, axes, keepdims=1)`` (Operators.md ReduceMean-13, Unsqueeze-13);
- ``fuse_consecutive_squeezes``: ``Squeeze(Squeeze(x, a1), a2)`` as one Squeeze (Operators.md Squeeze-13);
- ``fuse_matmul_add_bias_into_gemm``: ``Add(MatMul(a, w), b)``, a and w of rank 2 with static dims (Gemm's C
  broadcasts unidirectionally to ``[M, N]``, Operators.md Gemm-13);
- ``replace_einsum_with_matmul``: a two-operand Einsum that is a (batched) matrix product, or one with its second
  operand transposed (Operators.md Einsum-12);
- ``fuse_concat_into_reshape``: a Reshape whose ``shape`` is a Concat (axis 0) of constants and one
  one-element value read off the input's Shape (its ``[1]`` annotated: the pass reads the value's sizes;
  Operators.md Reshape-13: -1 is inferred from the rest);
- ``eliminate_deadend``: a node whose output nothing reads (IR.md: a node output need not be read);
- ``fuse_consecutive_slices``: ``Slice(Slice(x))`` on other axes, each with all five inputs (Operators.md
  Slice-13; the inner result annotated: the pass reads its sizes);
- ``adjust_slice_and_matmul``: ``MatMul(Slice(W), V)``, W, V and the slice's axes constants, the slice on no
  axis of W's last (the product's rows are the sliced rows: Operators.md MatMul, numpy matmul).
"""

from __future__ import annotations

import numpy as np

from passcheck._library.patterns_onnxoptimizer import _case  # loaded first (the library loads by name)

I64 = np.int64


def _i(*v) -> np.ndarray:
    return np.array(v, I64)


_case(
    "nop-cast",
    "eliminate_nop_cast",
    """y = Relu(Cast(x, to=FLOAT)), x: float[N, 3, 4]: the Cast keeps the type (Operators.md Cast: each element
converted to ``to``, here x's own elem_type, so the values are x's).

Uncommon: the Cast after the Relu, as the graph output's producer (the pass replaces the uses of the Cast's output,
here a graph output).""",
    "(float[N,3,4] x) => (float[N,3,4] y)",
    "{}",
    {
        "common": (("c = Cast <to = 1> (x)\ny = Relu(c)",), ""),
        "cast-last": (("r = Relu(x)\ny = Cast <to = 1> (r)",), "the Cast writes the graph output"),
    },
)
_case(
    "nop-flatten",
    "eliminate_nop_flatten",
    """y = Relu(Flatten(x, axis=1)), x: float[N, 6] (rank 2: the output is x).

Uncommon: axis omitted (Operators.md Flatten-13: default 1); written -1, the same axis of a rank-2 input.""",
    "(float[N,6] x) => (float[N,6] y)",
    "f = Flatten{} (x)\ny = Relu(f)",
    {
        "common": ((" <axis = 1>",), ""),
        "axis-omitted": (("",), "axis at its default"),
        "axis-negative": ((" <axis = -1>",), "axis -1"),
    },
)
_case(
    "nop-pad",
    "eliminate_nop_pad",
    """y = Relu(Pad(x, pads all 0)), x: float[N, 3, 4].

Uncommon: the pad value 0 written as Pad's third input (Operators.md Pad-13: constant_value defaults to 0).""",
    "(float[N,3,4] x) => (float[N,3,4] y)",
    "p = Pad(x, {})\ny = Relu(p)",
    {"common": (("zeros",), ""), "value-written": (("zeros, zero",), "constant_value written")},
    {"zeros": _i(0, 0, 0, 0, 0, 0), "zero": np.array(0, np.float32)},
)
_case(
    "nop-concat",
    "eliminate_nop_concat",
    """y = Relu(Concat(x, axis=1)), x: float[N, 4]: a Concat of one input is that input.

Uncommon: axis written -1, the same axis of a rank-2 input (Operators.md Concat: axis in [-r, r-1]).""",
    "(float[N,4] x) => (float[N,4] y)",
    "c = Concat <axis = {}> (x)\ny = Relu(c)",
    {"common": ((1,), ""), "axis-negative": ((-1,), "axis -1")},
)
_case(
    "nop-split",
    "eliminate_nop_split",
    """y = Relu(Split(x, axis=1)) with one output, x: float[N, 4]: one part is the whole input.

Uncommon: the one part's size written as the split input [4] (Operators.md Split-13); axis -1.""",
    "(float[N,4] x) => (float[N,4] y)",
    "s = Split <axis = {}> ({})\ny = Relu(s)",
    {
        "common": ((1, "x"), ""),
        "split-written": ((1, "x, four"), "split = [4] written"),
        "axis-negative": ((-1, "x"), "axis -1"),
    },
    {"four": _i(4)},
)
_case(
    "reduce-unsqueeze",
    "fuse_consecutive_reduce_unsqueeze",
    """y = Unsqueeze(ReduceMean(x, axes=[1], keepdims=0), [1]), x: float[N, 3, 4]: ReduceMean with keepdims=1.

Uncommon: the reduced axis written -2 (the same axis of rank 3, Operators.md ReduceMean-13); the Unsqueeze's
axis written -2 (the same position of its rank-3 output, Operators.md Unsqueeze-13).""",
    "(float[N,3,4] x) => (float[N,1,4] y)",
    "r = ReduceMean <axes = [{}], keepdims = 0> (x)\ny = Unsqueeze(r, {})",
    {
        "common": ((1, "one"), ""),
        "reduce-axis-negative": ((-2, "one"), "ReduceMean's axis -2"),
        "unsqueeze-axis-negative": ((1, "minus_two"), "Unsqueeze's axis -2"),
    },
    {"one": _i(1), "minus_two": _i(-2)},
)
_case(
    "squeeze-squeeze",
    "fuse_consecutive_squeezes",
    """y = Squeeze(Squeeze(x, [1]), [1]), x: float[N, 1, 1, 4] → [N, 4].

Uncommon: the second Squeeze's axis written -2 (the same axis of its rank-3 input, Operators.md Squeeze-13);
the first's written 2 (the other unit dim: the same result).""",
    "(float[N,1,1,4] x) => (float[N,4] y)",
    "s = Squeeze(x, {})\ny = Squeeze(s, {})",
    {
        "common": (("one", "one"), ""),
        "second-negative": (("one", "minus_two"), "second axis -2"),
        "first-other": (("two", "one"), "first axis 2"),
    },
    {"one": _i(1), "two": _i(2), "minus_two": _i(-2)},
)
_case(
    "matmul-add",
    "fuse_matmul_add_bias_into_gemm",
    """y = Add(MatMul(a, w), b), a: float[2, 3], w a [3, 4] initializer, b a [4] initializer: Gemm(a, w, b).

Uncommon: b of shape [1, 4] (the same values broadcast, Operators.md Add: multidirectional broadcasting).""",
    "(float[2,3] a) => (float[2,4] y)",
    "m = MatMul(a, w)\ny = Add(m, {})",
    {"common": (("b",), ""), "bias-2d": (("b2",), "b as [1, 4]")},
    {
        "w": np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4),
        "b": np.array([0.5, -0.5, 0.25, 1.0], np.float32),
        "b2": np.array([[0.5, -0.5, 0.25, 1.0]], np.float32),
    },
)
_case(
    "einsum-matmul",
    "replace_einsum_with_matmul",
    """y = Einsum("bij,bjk->bik", a, c), a, c: float[N, 3, 3]: MatMul(a, c).

Uncommon: other labels, "zmk,zkn->zmn" (Operators.md Einsum-12: a label names an axis, whichever letter).""",
    "(float[N,3,3] a, float[N,3,3] c) => (float[N,3,3] y)",
    'y = Einsum <equation = "{}"> (a, c)',
    {"common": (("bij,bjk->bik",), ""), "labels": (("zmk,zkn->zmn",), "other labels")},
)
_case(
    "concat-reshape",
    "fuse_concat_into_reshape",
    """y = Reshape(x, Concat(Shape(x)[0:1], [12], axis=0)), x: float[N, 3, 4] → [N, 12].

Uncommon: the Concat's axis written -1 (the same axis of its rank-1 inputs, Operators.md Concat).""",
    "(float[N,3,4] x) => (float[N,12] y) <int64[1] d>",
    "s = Shape(x)\nd = Slice(s, zero, one)\nc = Concat <axis = {}> (d, twelve)\ny = Reshape(x, c)",
    {"common": ((0,), ""), "axis-negative": ((-1,), "Concat axis -1")},
    {"zero": _i(0), "one": _i(1), "twelve": _i(12)},
)
_case(
    "deadend",
    "eliminate_deadend",
    """y = Sigmoid(x) beside t = Relu(x), which nothing reads, x: float[N, 3, 4].

Uncommon: the unread node first in the node list, or a chain of two unread nodes (IR.md: nodes in topological
order; an output nothing reads is allowed).""",
    "(float[N,3,4] x) => (float[N,3,4] y)",
    "{}",
    {
        "common": (("y = Sigmoid(x)\nt = Relu(x)",), ""),
        "dead-first": (("t = Relu(x)\ny = Sigmoid(x)",), "the unread node first"),
        "dead-chain": (("y = Sigmoid(x)\nt = Relu(x)\nu = Neg(t)",), "two unread nodes"),
    },
)
_case(
    "slice-slice",
    "fuse_consecutive_slices",
    """y = Slice(Slice(x, [0], [2], [1], [1]), [1], [3], [2], [1]), x: float[N, 4, 4] → [N, 2, 2].

Uncommon: the second Slice's axis written -1, or the first's -2 (the same axes of rank 3, Operators.md Slice-13:
axes in [-r, r-1]).""",
    "(float[N,4,4] x) => (float[N,2,2] y) <float[N,2,4] a>",
    "a = Slice(x, s0, e2, {}, st1)\ny = Slice(a, s1, e3, {}, st1)",
    {
        "common": (("ax1", "ax2"), ""),
        "second-negative": (("ax1", "axm1"), "second axis -1"),
        "first-negative": (("axm2", "ax2"), "first axis -2"),
    },
    {
        "s0": _i(0),
        "s1": _i(1),
        "e2": _i(2),
        "e3": _i(3),
        "ax1": _i(1),
        "ax2": _i(2),
        "axm1": _i(-1),
        "axm2": _i(-2),
        "st1": _i(1),
    },
)
_case(
    "slice-matmul",
    "adjust_slice_and_matmul",
    """y = Add(MatMul(Slice(W, [0], [2], [0]), V), x), W a [4, 3] initializer, V a [3, 5] one, x: float[N, 2, 5].

Uncommon: the slice's axis written -2 (the same axis of rank 2, Operators.md Slice-13); V given a leading
batch dim [1, 3, 5] (MatMul broadcasts like numpy).""",
    "(float[N,2,5] x) => (float[N,2,5] y)",
    "s = Slice(W, s0, e2, {})\nm = MatMul(s, {})\ny = Add(m, x)",
    {
        "common": (("ax0", "V"), ""),
        "axis-negative": (("axm2", "V"), "slice axis -2"),
        "batched-v": (("ax0", "V3"), "V as [1, 3, 5]"),
    },
    {
        "W": np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3),
        "V": np.linspace(0.5, -0.5, 15, dtype=np.float32).reshape(3, 5),
        "V3": np.linspace(0.5, -0.5, 15, dtype=np.float32).reshape(1, 3, 5),
        "s0": _i(0),
        "e2": _i(2),
        "ax0": _i(0),
        "axm2": _i(-2),
    },
)
