"""pattern-ort-qdq/*: QuantizeLinear/DequantizeLinear (QDQ) patterns onnxruntime's QDQ transformers match.

A QDQ model spells a quantized op as DequantizeLinear (DQ) on each input, the float op, and
QuantizeLinear (Q) on its output (Operators.md QuantizeLinear-13/19/21, DequantizeLinear: scalar
``y_scale`` and ``y_zero_point`` for per-tensor quantization; the zero point is optional and
defaults to uint8 0; ``axis`` is ignored for a scalar scale). onnxruntime's transformers read
these node units (core/optimizer/qdq_transformer/*.cc): the selector/action transformer turns them
into QLinear* or com.microsoft ops, the S8-to-U8 transformer rewrites int8 activations as uint8,
WeightBiasQuantization quantizes a float bias, QDQ propagation moves Q/DQ through layout ops, the
double-pair remover and the final cleanup drop redundant pairs. Each case's forms keep the same
scales and zero points, so they compute the same numbers.
"""

from __future__ import annotations

import numpy as np
import onnx.helper

from passcheck.cases.builders import rng
from passcheck.cases.fusion import fusion_case

FAMILY = "pattern-ort-qdq"
R = rng(FAMILY)
U8, I8 = np.uint8, np.int8
CONSTS = {
    "sx": np.array(0.02),
    "zx": np.array(128, dtype=U8),
    "zx8": np.array(0, dtype=I8),
    "sy": np.array(0.05),
    "zy": np.array(128, dtype=U8),
    "zy8": np.array(0, dtype=I8),
    "sw": np.array(0.01),
    "zw": np.array(0, dtype=I8),
    # Weights within 7 bits ([-64, 63]): onnxruntime's x86 u8s8 kernels without VNNI add two products of a
    # uint8 and an int8 in a saturating int16 (its quantization docs' reduce_range advice), so wider weights
    # give results that depend on the CPU. Drawn in [-100, 100) and scaled, the stream of R is unchanged.
    "wq": (R.integers(-100, 100, (3, 2, 3, 3)) * 64 // 100).astype(I8),
    "mq": (R.integers(-100, 100, (8, 4)) * 64 // 100).astype(I8),
    "cb": R.standard_normal(3),
    "s2": np.array(0.04),
    "z2": np.array(128, dtype=U8),
    "s6": np.array(6.0 / 255),
    "z0": np.array(0, dtype=U8),
    "zero": np.array(0.0),
    "six": np.array(6.0),
    "fill": np.array(0.5),
    "perm": np.array([1, 0], dtype=np.int64),
    "bias4": R.standard_normal(4),
}
BIND = ({"N": 1}, {"N": 2})


def _qdq(name: str, transformer: str, doc: str, forms: dict, sig: str, level: str = "extended", **kw) -> None:
    fusion_case(
        f"{FAMILY}/{name}",
        transformer=transformer,
        level=level,
        signature=sig,
        consts=CONSTS,
        bindings=BIND,
        doc=doc,
        forms=forms,
        tags=("pattern", "qdq"),
        **kw,
    )


IN = "xq = QuantizeLinear(x, sx, zx)\nxd = DequantizeLinear(xq, sx, zx)\n"
OUT = "yq = QuantizeLinear(c, sy, zy)\ny = DequantizeLinear(yq, sy, zy)"
WDQ = "wd = DequantizeLinear(wq, sw, zw)\n"
_qdq(
    "conv",
    "QDQSelectorActionTransformer",
    """QDQ Conv 3x3 (pads 1) of x: [N, 2, 6, 6]: uint8 activations, int8 weight, float bias (float).

The selector/action transformer turns DQ, DQ -> Conv -> Q into QLinearConv; WeightBiasQuantization
first rewrites the float bias as an int32 DQ (scale = input scale * weight scale). Uncommon: the
scales from Constant(value_float) nodes, the DQ's axis written for a scalar scale (ignored), the
opset-19 Q/DQ (Operators.md QuantizeLinear-19).""",
    {
        "common": (IN + WDQ + "c = Conv <pads = [1, 1, 1, 1]> (xd, wd, cb)\n" + OUT, ""),
        "scale-constant-nodes": (
            "k = Constant <value_float = 0.02> ()\nxq = QuantizeLinear(x, k, zx)\n"
            "xd = DequantizeLinear(xq, k, zx)\n" + WDQ + "c = Conv <pads = [1, 1, 1, 1]> (xd, wd, cb)\n"
            "" + OUT,
            "the input scale from Constant(value_float)",
        ),
        "axis-explicit": (
            IN + "wd = DequantizeLinear <axis = 0> (wq, sw, zw)\nc = Conv <pads = [1, 1, 1, 1]> (xd, wd, cb)\n" + OUT,
            "axis 0 written on the weight's DQ (scalar scale: ignored)",
        ),
        "opset-19": (IN + WDQ + "c = Conv <pads = [1, 1, 1, 1]> (xd, wd, cb)\n" + OUT, "opset 19 Q/DQ", 19),
    },
    sig="(T[N,2,6,6] x) => (T[N,3,6,6] y)",
    targets=("WeightBiasQuantization",),
    gone=("Conv",),
)

MM_IN8 = (
    "xq = QuantizeLinear(x, sx, zx8)\nxd = DequantizeLinear(xq, sx, zx8)\nwd = DequantizeLinear(mq, sw, zw)\n"
    "m = MatMul(xd, wd)\n"
)
_qdq(
    "matmul-int8",
    "QDQS8ToU8Transformer",
    """QDQ MatMul of x: [N, 8] by an int8 [8, 4] weight, int8 activations (float).

On x86 (int8 activations not allowed) the S8-to-U8 transformer rewrites the int8 activation Q/DQ
pairs as uint8 (zero point + 128), then the selector makes a QLinearMatMul. Uncommon: the
activation's zero point omitted on the output side is not the same type, so the uncommon forms are
the weight's zero point written as the Q/DQ default 0 from a Constant node, and MatMul's operands
through Gemm (Operators.md Gemm: alpha 1, no C).""",
    {
        "common": (MM_IN8 + "yq = QuantizeLinear(m, sy, zy8)\ny = DequantizeLinear(yq, sy, zy8)", ""),
        "zp-constant-node": (
            "xq = QuantizeLinear(x, sx, zx8)\nxd = DequantizeLinear(xq, sx, zx8)\n"
            "k = Constant <value = int8 {0}> ()\n"
            "wd = DequantizeLinear(mq, sw, k)\nm = MatMul(xd, wd)\nyq = QuantizeLinear(m, sy, zy8)\n"
            "y = DequantizeLinear(yq, sy, zy8)",
            "the weight's zero point from a Constant node",
        ),
        "gemm": (
            "xq = QuantizeLinear(x, sx, zx8)\nxd = DequantizeLinear(xq, sx, zx8)\nwd = DequantizeLinear(mq, sw, zw)\n"
            "m = Gemm(xd, wd)\n"
            "yq = QuantizeLinear(m, sy, zy8)\ny = DequantizeLinear(yq, sy, zy8)",
            "Gemm without C instead of MatMul",
        ),
    },
    sig="(T[N,8] x) => (T[N,4] y)",
    targets=("QDQSelectorActionTransformer",),
)

_qdq(
    "double-pair",
    "DoubleQDQPairsRemover",
    """Two back-to-back Q/DQ pairs on x: [N, 8] with equal parameters, then Neg (float).

DoubleQDQPairsRemover drops the inner DQ -> Q of Q1 -> DQ1 -> Q2 -> DQ2 when both pairs have
constant scalar scales and zero points of one type. Uncommon: the zero points from a Constant
node, the second pair's scale from a Constant node (Operators.md QuantizeLinear).""",
    {
        "common": (
            "a = QuantizeLinear(x, s2, z2)\nb = DequantizeLinear(a, s2, z2)\nc = QuantizeLinear(b, s2, z2)\n"
            "d = DequantizeLinear(c, s2, z2)\ny = Neg(d)",
            "",
        ),
        "zp-constant-node": (
            "z = Constant <value = uint8 {128}> ()\na = QuantizeLinear(x, s2, z)\n"
            "b = DequantizeLinear(a, s2, z)\n"
            "c = QuantizeLinear(b, s2, z)\nd = DequantizeLinear(c, s2, z)\n"
            "y = Neg(d)",
            "the zero points from one Constant node",
        ),
        "scale-constant-node": (
            "a = QuantizeLinear(x, s2, z2)\nb = DequantizeLinear(a, s2, z2)\n"
            "k = Constant <value_float = 0.04> ()\n"
            "c = QuantizeLinear(b, k, z2)\nd = DequantizeLinear(c, k, z2)\n"
            "y = Neg(d)",
            "the second scale from Constant(value_float)",
        ),
    },
    sig="(T[N,8] x) => (T[N,8] y)",
    level="basic",
)

_qdq(
    "propagate-transpose",
    "QDQPropagationTransformer",
    """Q/DQ of x: [N, 8], then Transpose, then Neg (float).

QDQ propagation moves the DQ forward through the layout op (Transpose, Reshape, Squeeze, ...) by
inserting a Q/DQ pair after it. Uncommon: the perm written as its default reversal, Reshape to
[-1] (both keep the values quantized; Operators.md Transpose, Reshape).""",
    {
        "common": (
            "xq = QuantizeLinear(x, sx, zx)\nxd = DequantizeLinear(xq, sx, zx)\nt = Transpose(xd)\ny = Neg(t)",
            "",
        ),
        "perm-explicit": (
            "xq = QuantizeLinear(x, sx, zx)\nxd = DequantizeLinear(xq, sx, zx)\n"
            "t = Transpose <perm = [1, 0]> (xd)\ny = Neg(t)",
            "perm [1, 0] written (the default reversal)",
        ),
    },
    sig="(T[N,8] x) => (T[8,N] y)",
    level="basic",
)

_qdq(
    "where-scalar",
    "WhereDummyDq",
    """Where(x > 0, DQ(Q(x)), 0.5) then Q/DQ, x: [N, 8] (float).

WhereDummyDq gives the scalar float branch of a Where between DQ and Q its own DQ, so the Where
forms one QDQ node unit. Uncommon: the branches swapped under the negated predicate x <= 0
(Operators.md Where, LessOrEqual).""",
    {
        "common": (IN + "g = Greater(x, zero)\nc = Where(g, xd, fill)\n" + OUT, ""),
        "branches-swapped": (
            IN + "g = LessOrEqual(x, zero)\nc = Where(g, fill, xd)\n" + OUT,
            "Where(x <= 0, 0.5, DQ(x))",
        ),
    },
    sig="(T[N,8] x) => (T[N,8] y)",
    level="basic",
)

_qdq(
    "relu-quant",
    "ReluQuantRewrite",
    """Relu of x: [N, 8], then QuantizeLinear to uint8 with zero point 0, then DQ (float).

A uint8 Q with zero point 0 already clamps negatives to 0, so the Level2 ReluQuantFusion rule
(ReluQuantRewrite) drops the Relu. Uncommon: Relu written Clip(x, 0) (Operators.md Clip), Max(x, 0).""",
    {
        "common": ("r = Relu(x)\nq = QuantizeLinear(r, s6, z0)\ny = DequantizeLinear(q, s6, z0)", ""),
        "clip-min": (
            "r = Clip(x, zero)\nq = QuantizeLinear(r, s6, z0)\ny = DequantizeLinear(q, s6, z0)",
            "Relu written Clip(x, 0)",
        ),
        "max-zero": (
            "r = Max(x, zero)\nq = QuantizeLinear(r, s6, z0)\ny = DequantizeLinear(q, s6, z0)",
            "Relu written Max(x, 0)",
        ),
    },
    sig="(T[N,8] x) => (T[N,8] y)",
    gone=("Relu",),
)

_qdq(
    "clip-quant",
    "ClipQuantRewrite",
    """Clip of x: [N, 8] to [0, 6], then QuantizeLinear to uint8 (scale 6/255, zero point 0), then DQ (float).

The Q's representable range is [0, 6], so the Level2 ClipQuantFusion rule (ClipQuantRewrite)
drops the Clip. Common: the opset-10 Clip with min/max attributes. Uncommon: the opset-11+ Clip
with the bounds as initializer inputs or from Constant nodes, the zero point omitted (uint8 0)
(Operators.md Clip-6/11, QuantizeLinear).""",
    {
        "common": (
            "r = Clip <min = 0.0, max = 6.0> (x)\nq = QuantizeLinear(r, s6, z0)\ny = DequantizeLinear(q, s6, z0)",
            "",
            10,
        ),
        "bound-inputs": (
            "r = Clip(x, zero, six)\nq = QuantizeLinear(r, s6, z0)\ny = DequantizeLinear(q, s6, z0)",
            "opset 11+: the bounds as inputs",
        ),
        "constant-nodes": (
            "lo = Constant <value_float = 0.0> ()\nhi = Constant <value_float = 6.0> ()\n"
            "r = Clip(x, lo, hi)\n"
            "q = QuantizeLinear(r, s6, z0)\n"
            "y = DequantizeLinear(q, s6, z0)",
            "bounds from Constant(value_float)",
        ),
        "zp-omitted": (
            "r = Clip(x, zero, six)\nq = QuantizeLinear(r, s6)\ny = DequantizeLinear(q, s6)",
            "zero point omitted (uint8 0)",
        ),
    },
    sig="(T[N,8] x) => (T[N,8] y)",
    gone=("Clip",),
)

_qdq(
    "dq-shared",
    "EnsureUniqueDQForNodeUnit",
    """One int8 weight [8, 4] dequantized once and used by two QDQ MatMuls of x: [N, 8], summed (float).

EnsureUniqueDQForNodeUnit gives every QDQ node unit its own DQ (a DQ feeding two units is
duplicated). Common: one DQ per MatMul, as quantizers write it. Uncommon: the one shared DQ
written directly (a value may feed any number of nodes, IR.md
"Graphs"; Operators.md DequantizeLinear).""",
    {
        "common": (
            IN + "w1 = DequantizeLinear(mq, sw, zw)\nw2 = DequantizeLinear(mq, sw, zw)\nm1 = MatMul(xd, w1)\n"
            "m2 = MatMul(xd, w2)\n"
            "q1 = QuantizeLinear(m1, sy, zy)\nq2 = QuantizeLinear(m2, sy, zy)\nd1 = DequantizeLinear(q1, sy, zy)\n"
            "d2 = DequantizeLinear(q2, sy, zy)\ny = Add(d1, d2)",
            "",
        ),
        "shared-dq": (
            IN + "w1 = DequantizeLinear(mq, sw, zw)\nm1 = MatMul(xd, w1)\nm2 = MatMul(xd, w1)\n"
            "q1 = QuantizeLinear(m1, sy, zy)\nq2 = QuantizeLinear(m2, sy, zy)\n"
            "d1 = DequantizeLinear(q1, sy, zy)\n"
            "d2 = DequantizeLinear(q2, sy, zy)\ny = Add(d1, d2)",
            "one DQ shared by both MatMuls",
        ),
    },
    sig="(T[N,8] x) => (T[N,4] y)",
    level="basic",
)

_qdq(
    "dynamic-matmul",
    "MatMulIntegerToFloatFusion",
    """DynamicQuantizeLinear(x: [N, 8]) then MatMulInteger by an int8 [8, 4] weight, Cast, scale and bias (float).

MatMulIntegerToFloatFusion fuses MatMulInteger -> Cast -> Mul(A_scale * B_scale) -> Add(bias [4])
into com.microsoft MatMulIntegerToFloat; DynamicQuantizeMatMulFusion then folds the
DynamicQuantizeLinear in (DynamicQuantizeMatMul). Uncommon: the scale product Mul(ws, xs)
(commutative), the bias Add without the B zero point (optional, Operators.md MatMulInteger).""",
    {
        "common": (
            "q, qs, qz = DynamicQuantizeLinear(x)\nmi = MatMulInteger(q, mq, qz, zw)\nf = Cast <to = 1> (mi)\n"
            "s = Mul(qs, sw)\nm = Mul(f, s)\ny = Add(m, bias4)",
            "",
        ),
        "scale-swapped": (
            "q, qs, qz = DynamicQuantizeLinear(x)\nmi = MatMulInteger(q, mq, qz, zw)\n"
            "f = Cast <to = 1> (mi)\n"
            "s = Mul(sw, qs)\nm = Mul(f, s)\ny = Add(m, bias4)",
            "Mul(B_scale, A_scale)",
        ),
        "b-zp-omitted": (
            "q, qs, qz = DynamicQuantizeLinear(x)\nmi = MatMulInteger(q, mq, qz)\nf = Cast <to = 1> (mi)\n"
            "s = Mul(qs, sw)\nm = Mul(f, s)\ny = Add(m, bias4)",
            "the B zero point omitted (0)",
        ),
    },
    sig="(T[N,8] x) => (T[N,4] y)",
    targets=("DynamicQuantizeMatMulFusion",),
    gone=("MatMulInteger",),
)

K, NCOL, BLOCK = 32, 8, 16
W4 = R.integers(0, 16, (K, NCOL))
ZP4 = [0] * (K * NCOL // BLOCK)
CONSTS.update(
    {
        "w4": lambda: onnx.helper.make_tensor("w4", onnx.TensorProto.UINT4, (K, NCOL), W4.flatten().tolist()),
        "zp4": lambda: onnx.helper.make_tensor("zp4", onnx.TensorProto.UINT4, (K // BLOCK, NCOL), ZP4),
        "s4": R.uniform(0.01, 0.05, (K // BLOCK, NCOL)),
        "bias8": R.standard_normal(NCOL),
    }
)
DQ4 = f"wd = DequantizeLinear <axis = 0, block_size = {BLOCK}> (w4, s4)\n"
_qdq(
    "matmul-4bit-bias",
    "MatMulNBitsFusion",
    """x: [N, 4, 32] times a blockwise uint4 weight [32, 8] (block_size 16 along K), plus a bias [8] (float).

The selector/action transformer turns DQ(blockwise uint4, axis 0) -> MatMul into com.microsoft
MatMulNBits; MatMulNBitsFusion then folds the bias Add into it. Uncommon: the zero point written
as its default uint4 0s, Add(bias, m) (commutative) (Operators.md DequantizeLinear-21: block_size,
an omitted zero point is 0). Tolerance 5%: MatMulNBits at the session's default accuracy level
4 quantizes the activations to int8.""",
    {
        "common": (DQ4 + "m = MatMul(x, wd)\ny = Add(m, bias8)", "", 21),
        "zp-explicit": (
            f"wd = DequantizeLinear <axis = 0, block_size = {BLOCK}> (w4, s4, zp4)\nm = MatMul(x, wd)\n"
            "y = Add(m, bias8)",
            "the zero point written as uint4 zeros",
            21,
        ),
        "bias-first": (DQ4 + "m = MatMul(x, wd)\ny = Add(bias8, m)", "Add(bias, m)", 21),
    },
    sig="(T[N,4,32] x) => (T[N,4,8] y)",
    targets=("QDQSelectorActionTransformer",),
    gone=("Add",),
    rtol=0.05,
    atol=0.05,
)

#: One scale per column, repeated down K: a blocked DQ computes the same weight at any block size (below).
COL4 = np.asarray(CONSTS["s4"])[0]
CONSTS.update({"s4r2": np.tile(COL4, (K // BLOCK, 1)), "s4r1": COL4[None, :]})


def _dq_block(size: int, scale: str) -> str:
    return f"wd = DequantizeLinear <axis = 0, block_size = {size}> (w4, {scale})\ny = MatMul(x, wd)"


_qdq(
    "matmul-4bit-block-sizes",
    "QDQSelectorActionTransformer",
    """x: [N, 4, 32] times a blockwise uint4 weight [32, 8] (axis 0), one block size per form (float).

Operators.md DequantizeLinear-21: ``block_size`` is any positive integer, and for a scale of S
rows along an axis of length K the accepted block sizes are [ceil(K/S), ceil(K/(S-1)) - 1]; with
one scale row, [K, inf): a single block as long as the axis or longer. The scales here are one
value per column repeated on every row, so every block size computes the same weight. The
selector's own condition (``ValidateDQForMatMulNBits``, qdq_selectors.cc: blockwise when axis 0
and block_size a power of two, at least 16) admits every form, so each should become
com.microsoft MatMulNBits with the block size it states. Uncommon: one block the length of K
(block_size 32), and one scale row with block_size past K (64 and 4096). Tolerance 5%:
MatMulNBits at the default accuracy level 4 quantizes the activations to int8.""",
    {
        "common": (_dq_block(BLOCK, "s4r2"), "", 21),
        "one-block": (_dq_block(K, "s4r1"), "block_size = K: one scale row", 21),
        "block-past-axis": (_dq_block(2 * K, "s4r1"), "block_size 2K, one scale row", 21),
        "block-far-past-axis": (_dq_block(4096, "s4r1"), "block_size 4096, one scale row", 21),
    },
    sig="(T[N,4,32] x) => (T[N,4,8] y)",
    targets=("QDQSelectorActionTransformer",),
    gone=("DequantizeLinear",),
    rtol=0.05,
    atol=0.05,
)

_qdq(
    "dq-clip-q",
    "TransposeOptimizer_CPUExecutionProvider",
    """uint8 xq: [N, 8] dequantized (scale 6/255, zero point 0), clipped to [0, 6], requantized, dequantized, Neg.

The dequantized values already lie in [0, 6], so the Level2 ClipQuantFusion rule drops the Clip;
the DQ -> Q pair left with equal parameters is the identity on xq, and the Level2 run of the
transpose optimizer for the CPU provider (which also cancels such pairs) removes it. Uncommon:
the opset-13 Clip with its bounds as inputs (Operators.md Clip-11, DequantizeLinear).""",
    {
        "common": (
            "a = DequantizeLinear(xq, s6, z0)\nc = Clip <min = 0.0, max = 6.0> (a)\nb = QuantizeLinear(c, s6, z0)\n"
            "d = DequantizeLinear(b, s6, z0)\ny = Neg(d)",
            "",
            10,
        ),
        "bound-inputs": (
            "a = DequantizeLinear(xq, s6, z0)\nc = Clip(a, zero, six)\nb = QuantizeLinear(c, s6, z0)\n"
            "d = DequantizeLinear(b, s6, z0)\ny = Neg(d)",
            "opset 13: the bounds as inputs",
            13,
        ),
    },
    sig="(uint8[N,8] xq) => (T[N,8] y)",
    targets=("ClipQuantRewrite",),
    gone=("Clip", "QuantizeLinear"),
)
