"""pattern-onnxscript-fused-matmul/*: batch-axis Transposes around MatMul, for onnxscript's FusedMatMul rules.

``optimize_for_ort`` applies onnxscript rewriter/ort_fusions/fused_matmul_rule_sets.py in order:
TransposeMatMul1/2 fold a Transpose swapping the last two axes into com.microsoft FusedMatMul's
``transA``/``transB``; the TransposeFusedMatMulWith* rules then fold a Transpose on a FusedMatMul
input into ``transBatchA``/``transBatchB`` (perm [1, ..., N-2, 0, N-1]: FlippedBatch), into both
(perm [1, ..., N-1, 0]: FlippedBatchAndTranspose), or, when ``transBatch`` is already 1, into
``trans`` (perm [N-1, 1, ..., N-2, 0]: BatchAndTranspose); TransposeFusedMatMul1 folds a last-two
swap on input A of a FusedMatMul. The last three only see a FusedMatMul the model already holds
(an onnxruntime-optimized model, ContribOperators.md FusedMatMul): in a plain MatMul chain
TransposeMatMul1 takes input A's Transpose first and the optimizer merges consecutive Transposes.

Equivalences the uncommon forms use: Operators.md Einsum (the same contraction written as an
equation), Transpose (composition of permutations), MatMul (batched over the leading axis);
FusedMatMul's ``transBatchA`` = 1 reads A as Transpose(A, [1, 0, 2]) and ``transA`` = 1 as
Transpose(A, [0, 2, 1]) (rank 3).
"""

from __future__ import annotations

from passcheck.cases.rules import onnxscript_case

FAMILY = "pattern-onnxscript-fused-matmul"
PASS = "onnxscript:optimize-for-ort"
MS = {"com.microsoft": 1}


def _case(name: str, rule: str, doc: str, forms: dict, sig: str, **kw) -> None:
    onnxscript_case(
        f"{FAMILY}/{name}", rule, doc, forms, sig, consts={}, pass_id=PASS, bindings=({}, {}), opset=18, **kw
    )


def _chain(name: str, rule: str, target: str, a: str, b: str, pa: str, pb: str, equation: str) -> None:
    _case(
        name,
        rule,
        f"""y = Transpose(a, {pa}) @ Transpose(b, {pb}) of a: {a}, b: {b} (float): [4, 3, 6].

{target} folds the last-two swap into FusedMatMul, then {rule} the other, batch-axis Transpose.
Uncommon: the contraction as Einsum "{equation}" (Operators.md Einsum).""",
        {
            "common": (f"x = Transpose <perm = {pa}> (a)\nz = Transpose <perm = {pb}> (b)\ny = MatMul(x, z)", ""),
            "einsum": (f'y = Einsum <equation = "{equation}"> (a, b)', f"Einsum {equation}"),
        },
        f"(float{a} a, float{b} b) => (float[4,3,6] y)",
        targets=(target,),
    )


_chain("batch-flip-a", "TransposeFusedMatMulWithFlippedBatch1", "TransposeMatMul2",
       "[3,4,5]", "[4,6,5]", "[1, 0, 2]", "[0, 2, 1]", "ibk,bjk->bij")  # fmt: skip
_chain("batch-flip-b", "TransposeFusedMatMulWithFlippedBatch2", "TransposeMatMul1",
       "[4,5,3]", "[5,4,6]", "[0, 2, 1]", "[1, 0, 2]", "bki,kbj->bij")  # fmt: skip
_chain("batch-flip-transpose-a", "TransposeFusedMatMulWithFlippedBatchAndTranspose1", "TransposeMatMul2",
       "[5,4,3]", "[4,6,5]", "[1, 2, 0]", "[0, 2, 1]", "kbi,bjk->bij")  # fmt: skip
_chain("batch-flip-transpose-b", "TransposeFusedMatMulWithFlippedBatchAndTranspose2", "TransposeMatMul1",
       "[4,5,3]", "[6,4,5]", "[0, 2, 1]", "[1, 2, 0]", "bki,jbk->bij")  # fmt: skip

_case(
    "fused-transpose-a",
    "TransposeFusedMatMul1",
    """y = FusedMatMul(Transpose(a, [0, 2, 1]), b) of a: [4, 5, 3], b: [4, 5, 6] (float): [4, 3, 6].

Common: a model onnxruntime already optimized (FusedMatMul written), its A input transposed.
Uncommon: the plain MatMul of the Transpose; FusedMatMul with transA = 1 (Operators.md MatMul, Transpose;
see the module doc).""",
    {
        "common": ("x = Transpose <perm = [0, 2, 1]> (a)\ny = com.microsoft.FusedMatMul(x, b)", ""),
        "matmul": ("x = Transpose <perm = [0, 2, 1]> (a)\ny = MatMul(x, b)", "plain MatMul"),
        "trans-a": ("y = com.microsoft.FusedMatMul <transA = 1> (a, b)", "transA = 1"),
    },
    "(float[4,5,3] a, float[4,5,6] b) => (float[4,3,6] y)",
    extra_opsets=MS,
)


def _batch_transposed(side: str, rule: str, sig: str) -> None:
    """FusedMatMul with transBatch<side> = 1 of a Transpose [2, 1, 0] on input <side>."""
    name = side.lower()
    x = "a" if side == "A" else "b"
    fused = "(t, b)" if side == "A" else "(a, t)"
    _case(
        f"fused-batch-transpose-{name}",
        rule,
        f"""y = FusedMatMul of Transpose({x}, [2, 1, 0]) as input {side}, transBatch{side} = 1 (float): [4, 3, 6].

Uncommon: the plain MatMul of Transpose({x}, [1, 2, 0]), the two permutations composed (Operators.md
MatMul, Transpose; see the module doc).""",
        {
            "common": (
                f"t = Transpose <perm = [2, 1, 0]> ({x})\ny = com.microsoft.FusedMatMul <transBatch{side} = 1> {fused}",
                "",
            ),
            "matmul": (f"t = Transpose <perm = [1, 2, 0]> ({x})\ny = MatMul{fused}", "plain MatMul, perm [1, 2, 0]"),
        },
        sig,
        extra_opsets=MS,
    )


_batch_transposed(
    "A", "TransposeFusedMatMulWithBatchAndTranspose1", "(float[5,4,3] a, float[4,5,6] b) => (float[4,3,6] y)"
)
_batch_transposed(
    "B", "TransposeFusedMatMulWithBatchAndTranspose2", "(float[4,3,5] a, float[6,4,5] b) => (float[4,3,6] y)"
)
