"""pattern-onnxscript/*: bases for the default rewrite rules the coverage map found untriggered on
onnxscript 0.7.2 (a rule's pattern in no case's *first* form: the map observes that form only).

Each common form is what the rule's ``pattern`` and ``check`` accept, read from onnxscript's
sources (``onnxscript/rewriter/rules/common``: ``_no_op.py`` for x*1, 0+x, x-0, x/1;
``_basic_rules.py`` TransposeTranspose; ``_broadcast_to_matmul.py`` the two Reshape-MatMul-Reshape
rules; ``_fuse_relus_clips.py`` FuseSuccessiveClipRelu; ``_collapse_slices.py`` the two redundant-Slice rules;
``_fuse_pad_into_conv.py`` NormalizePadFormatConv and FuseConvIntegerPad;
``_redundant_scatter_nd.py`` ScatterAllStatic): op types, which inputs must be constant, the
static shapes the check reads. The uncommon form is the same computation the way the rule
rewrites it (or another spelling the spec allows).
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.rules import onnxscript_case

FAMILY = "pattern-onnxscript"
R = rng(f"{FAMILY}-more")
I64 = np.int64
CONSTS = {
    "one": np.array(1.0, np.float32),
    "zero": np.array(0.0, np.float32),
    "lo": np.array(-0.5, np.float32),
    "hi": np.array(0.5, np.float32),
    "b0": np.array([0], I64),
    "e8": np.array([8], I64),
    "ax1": np.array([1], I64),
    "st1": np.array([1], I64),
    "b00": np.array([0, 0], I64),
    "ebig": np.array([np.iinfo(I64).max, 8], I64),
    "ax01": np.array([0, 1], I64),
    "st11": np.array([1, 1], I64),
    "i01": np.array([[0], [1]], I64),
    "cw": R.standard_normal((3, 2, 3, 3)).astype(np.float32),
    "pads": np.array([0, 0, 1, 1, 0, 0, 1, 1], I64),
    "qw": R.integers(0, 8, (3, 2, 3, 3)).astype(np.uint8),
}
SIG = "(float[N,8] x) => (float[N,8] y)"


def _case(name: str, rule: str, doc: str, forms: dict, sig: str = SIG, **kw) -> None:
    onnxscript_case(f"{FAMILY}/{name}", rule, doc, forms, sig, consts=CONSTS, **kw)


_case(
    "mul-one-second",
    "Mul(x,1)",
    """r * 1, r = Relu(x): [N, 8], then Neg (float).

The no-op rules remove Mul by the scalar constant 1 (the uncommuted rule: the 1 second).
Uncommon: the 1 first (Operators.md Mul: commutative).""",
    {
        "common": ("r = Relu(x)\ns = Mul(r, one)\ny = Neg(s)", ""),
        "one-first": ("r = Relu(x)\ns = Mul(one, r)\ny = Neg(s)", "Mul(1, r)"),
    },
)

_case(
    "add-zero-first",
    "Add(0,x)",
    """0 + r, r = Relu(x): [N, 8], then Neg (float).

The no-op rules remove Add of the scalar constant 0 (the commuted rule: the 0 first).
Uncommon: the 0 second (Operators.md Add: commutative).""",
    {
        "common": ("r = Relu(x)\ns = Add(zero, r)\ny = Neg(s)", ""),
        "zero-second": ("r = Relu(x)\ns = Add(r, zero)\ny = Neg(s)", "Add(r, 0)"),
    },
)

_case(
    "sub-zero",
    "Sub(x,0)",
    """r - 0, r = Relu(x): [N, 8], then Neg (float).

The no-op rules remove Sub of the scalar constant 0. Uncommon: no Sub (Operators.md Sub).""",
    {
        "common": ("r = Relu(x)\ns = Sub(r, zero)\ny = Neg(s)", ""),
        "no-sub": ("r = Relu(x)\ny = Neg(r)", "no Sub"),
    },
)

_case(
    "div-one",
    "Div(x,1)",
    """r / 1, r = Relu(x): [N, 8], then Neg (float).

The no-op rules remove Div by the scalar constant 1. Uncommon: no Div (Operators.md Div).""",
    {
        "common": ("r = Relu(x)\ns = Div(r, one)\ny = Neg(s)", ""),
        "no-div": ("r = Relu(x)\ny = Neg(r)", "no Div"),
    },
)

_case(
    "transpose-transpose",
    "TransposeTranspose",
    """Transpose(Transpose(x: [N, 8], [1, 0]), [1, 0]), then Neg (float).

TransposeTranspose composes two Transposes with literal perms (an Identity when they cancel).
Uncommon: no Transpose (Operators.md Transpose).""",
    {
        "common": ("a = Transpose <perm = [1, 0]> (x)\nb = Transpose <perm = [1, 0]> (a)\ny = Neg(b)", ""),
        "none": ("y = Neg(x)", "no Transpose"),
    },
)

_case(
    "relu-then-clip",
    "FuseSuccessiveClipRelu",
    """Clip(Relu(x), -0.5, 0.5) of x: [N, 8] (float): a clip to [0, 0.5].

FuseSuccessiveClipRelu merges a Relu before a Clip with constant bounds into one Clip (min raised
to 0). Uncommon: Clip(x, 0, 0.5) written (Operators.md Relu, Clip-13).""",
    {
        "common": ("a = Relu(x)\ny = Clip(a, lo, hi)", ""),
        "clip": ("y = Clip(x, zero, hi)", "Clip(x, 0, 0.5)"),
    },
)

_case(
    "slice-whole-axis",
    "Slice(data,starts,ends,axes,steps)",
    """Slice(x: [N, 8], [0], [8], [1], [1]), then Neg (float).

The first redundant-Slice rule: every input a one-element constant, start 0, step 1, end at least
the (static) dim. Uncommon: no Slice (Operators.md Slice-13).""",
    {
        "common": ("s = Slice(x, b0, e8, ax1, st1)\ny = Neg(s)", ""),
        "none": ("y = Neg(x)", "no Slice"),
    },
)

_case(
    "slice-same-shape",
    "Slice(data,starts,ends,axes,steps)#2",
    """Slice(x: [N, 8], [0, 0], [INT64_MAX, 8], [0, 1], [1, 1]) as the output [N, 8] (float).

The second redundant-Slice rule: steps all 1 and the output's shape the input's (two axes, so the
first rule, one-element inputs only, declines). Uncommon: Identity (Operators.md Slice-13).""",
    {
        "common": ("y = Slice(x, b00, ebig, ax01, st11)", ""),
        "identity": ("y = Identity(x)", "Identity"),
    },
)

_case(
    "conv-auto-pad",
    "NormalizePadFormatConv",
    """Conv(x: [N, 2, 5, 5], w: [3, 2, 3, 3], auto_pad SAME_UPPER): [N, 3, 5, 5] (float).

NormalizePadFormatConv writes an auto_pad other than NOTSET as explicit pads (static spatial
input and output shapes). Uncommon: pads [1, 1, 1, 1] written (Operators.md Conv-11 auto_pad).""",
    {
        "common": ('y = Conv <auto_pad = "SAME_UPPER", kernel_shape = [3, 3]> (x, cw)', ""),
        "pads": ("y = Conv <pads = [1, 1, 1, 1]> (x, cw)", "explicit pads"),
    },
    "(float[N,2,5,5] x) => (float[N,3,5,5] y)",
)

_case(
    "convinteger-pad",
    "FuseConvIntegerPad",
    """ConvInteger(Pad(x: uint8 [N, 2, 3, 3], spatial 1), w uint8): int32 [N, 3, 3, 3].

FuseConvIntegerPad moves a constant zero Pad of the spatial dims into ConvInteger's pads.
Uncommon: the pads on ConvInteger (Operators.md Pad-18, ConvInteger-10).""",
    {
        "common": ("p = Pad(x, pads)\ny = ConvInteger(p, qw)", ""),
        "pads": ("y = ConvInteger <pads = [1, 1, 1, 1]> (x, qw)", "ConvInteger's own pads"),
    },
    "(uint8[N,2,3,3] x) => (int32[N,3,3,3] y)",
)

_case(
    "scatter-all-static",
    "ScatterAllStatic",
    """ScatterND(x: [2, N], [[0], [1]], u: [2, N]) (float): u replaces all of x.

ScatterAllStatic removes a ScatterND whose constant indices cover the whole first dim and whose
updates have the data's shape. Uncommon: Identity(u) (Operators.md ScatterND).""",
    {
        "common": ("y = ScatterND(x, i01, u)", ""),
        "identity": ("y = Identity(u)", "Identity(u)"),
    },
    "(float[2,N] x, float[2,N] u) => (float[2,N] y)",
)

MM = {
    "w45": R.standard_normal((4, 5)).astype(np.float32),
    "s64": np.array([6, 4], I64),
    "s45": np.array([4, 5], I64),
    "s235": np.array([2, 3, 5], I64),
}
CONSTS.update(MM)
_case(
    "reshape-matmul-reshape",
    "Reshape(input_a,shape_a);MatMul(_,input_b);Reshape(_,shape_c)",
    """Reshape(MatMul(Reshape(x: [2, 3, 4], [6, 4]), w: [4, 5]), [2, 3, 5]) (float).

The rule drops the Reshapes around a MatMul whose broadcasting gives the same result (static
shapes, the final shape constant and equal to MatMul(x, w)'s). Uncommon: MatMul(x, w) itself
(Operators.md MatMul: numpy broadcasting).""",
    {
        "common": ("a = Reshape(x, s64)\nm = MatMul(a, w45)\ny = Reshape(m, s235)", ""),
        "broadcast": ("y = MatMul(x, w45)", "MatMul(x, w) broadcast"),
    },
    "(float[2,3,4] x) => (float[2,3,5] y)",
    bindings=({}, {}),
)

_case(
    "reshape-both-matmul-reshape",
    "Reshape(input_a,shape_a);Reshape(input_b,shape_b);MatMul(_,_);Reshape(_,shape_c)",
    """Reshape(MatMul(Reshape(x: [2, 3, 4], [6, 4]), Reshape(w: [4, 5], [4, 5])), [2, 3, 5]) (float).

The two-Reshape form of the rule above: both MatMul inputs reshaped. Uncommon: MatMul(x, w)
(Operators.md MatMul).""",
    {
        "common": ("a = Reshape(x, s64)\nb = Reshape(w45, s45)\nm = MatMul(a, b)\ny = Reshape(m, s235)", ""),
        "broadcast": ("y = MatMul(x, w45)", "MatMul(x, w) broadcast"),
    },
    "(float[2,3,4] x) => (float[2,3,5] y)",
    bindings=({}, {}),
)
