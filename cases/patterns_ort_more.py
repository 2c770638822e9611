"""pattern-ort/*: bases for the onnxruntime transformers and rules (CPU, basic and extended) the
coverage map found untriggered on onnxruntime 1.32 (their pattern in no case's first form).

Each common form is what the transformer or rule acts on, read from onnxruntime's sources
(core/optimizer/*: ``common_subexpression_elimination.cc``, the transpose optimizer
``transpose_optimization/onnx_transpose_optimization.cc``, ``gemm_transpose_fusion.cc``,
``relu_clip_fusion.cc``, ``qdq_transformer/qdq_final_cleanup.cc``) and confirmed by effect (the
verbose log's ``modified: 1``, or the optimized graph changing when the rule is disabled). A rule
never removes a node whose output is a graph output, so patterns sit before a trailing op.
"""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import rng
from passcheck.cases.fusion import fusion_case

FAMILY = "pattern-ort"
R = rng(f"{FAMILY}-more")
CONSTS = {
    "w": R.standard_normal((8, 4)),
    "lo": np.array(-0.5),
    "hi": np.array(0.5),
    "zero": np.array(0.0),
    "sc": np.array(0.05),
    "zp": lambda: np.array(128, np.uint8),
}
SIG = "(T[N,8] x) => (T[N,8] y)"
BINDINGS = ({"N": 1}, {"N": 3})


def _case(name: str, transformer: str, level: str, doc: str, forms: dict, sig: str = SIG, **kw) -> None:
    fusion_case(
        f"{FAMILY}/{name}",
        transformer=transformer,
        level=level,
        signature=sig,
        consts=CONSTS,
        bindings=BINDINGS,
        doc=doc,
        forms=forms,
        tags=("pattern",),
        **kw,
    )


_case(
    "common-subexpression",
    "CommonSubexpressionElimination",
    "basic",
    """Neg(r) computed twice from r = Relu(x): [N, 8], the two added, then Neg (float).

CommonSubexpressionElimination merges nodes with the same op, attributes and inputs. Uncommon:
the one Neg read twice (Operators.md Neg, Add).""",
    {
        "common": ("r = Relu(x)\na = Neg(r)\nb = Neg(r)\ns = Add(a, b)\ny = Neg(s)", ""),
        "one-neg": ("r = Relu(x)\na = Neg(r)\ns = Add(a, a)\ny = Neg(s)", "one Neg, read twice"),
    },
)

_case(
    "transpose-pair",
    "TransposeOptimizer",
    "basic",
    """Transpose(Relu(Transpose(x: [N, 8], [1, 0])), [1, 0]) (float).

The transpose optimizer pushes a Transpose through an elementwise op and cancels it against its
inverse. Uncommon: Relu(x) alone (Operators.md Transpose, Relu).""",
    {
        "common": ("a = Transpose <perm = [1, 0]> (x)\nb = Relu(a)\ny = Transpose <perm = [1, 0]> (b)", ""),
        "none": ("y = Relu(x)", "no Transpose"),
    },
)

_case(
    "gemm-transposed-a",
    "GemmTransposeFusion",
    "extended",
    """Gemm(Transpose(Relu(x): [8, N]), w: [8, 4]): [N, 4] (float).

GemmTransposeFusion folds a Transpose feeding Gemm's A into transA. Uncommon: transA = 1 written
(Operators.md Gemm-13: transA).""",
    {
        "common": ("r = Relu(x)\nt = Transpose <perm = [1, 0]> (r)\ny = Gemm(t, w)", ""),
        "trans-a": ("r = Relu(x)\ny = Gemm <transA = 1> (r, w)", "transA = 1"),
    },
    sig="(T[8,N] x) => (T[N,4] y)",
)

_case(
    "relu-clip",
    "FuseReluClip",
    "basic",
    """Clip(Relu(x), -0.5, 0.5) of x: [N, 8], then Neg (float): a clip to [0, 0.5].

FuseReluClip removes a Relu before a Clip whose min is a constant initializer, raising min to 0.
Uncommon: Clip(x, 0, 0.5) written (Operators.md Relu, Clip-13).""",
    {
        "common": ("r = Relu(x)\nc = Clip(r, lo, hi)\ny = Neg(c)", ""),
        "clip": ("c = Clip(x, zero, hi)\ny = Neg(c)", "Clip(x, 0, 0.5)"),
    },
)

_case(
    "dq-q",
    "QDQFinalCleanupTransformer",
    "extended",
    """QuantizeLinear(DequantizeLinear(x: uint8 [N, 8], 0.05, 128), 0.05, 128), then Identity (uint8).

The final Q/DQ cleanup always removes a DequantizeLinear -> QuantizeLinear pair with the same
scale and zero point (the round trip is exact). Uncommon: Identity(x) (Operators.md
DequantizeLinear, QuantizeLinear).""",
    {
        "common": ("d = DequantizeLinear(x, sc, zp)\nq = QuantizeLinear(d, sc, zp)\ny = Identity(q)", ""),
        "identity": ("y = Identity(x)", "no pair"),
    },
    sig="(uint8[N,8] x) => (uint8[N,8] y)",
    targets=("EliminateIdentity",),
    opset=19,
)
