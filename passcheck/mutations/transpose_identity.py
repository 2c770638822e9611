"""An identity Transpose on one value: ``x → Transpose(x, perm=[0, 1, …, r-1])``, a rewrite of its own.

Operators.md Transpose: output dim ``i`` is input dim ``perm[i]``, and ``perm`` may be any permutation of the
axes, so the identity permutation leaves every element in place. onnxruntime's transformers that fold a
Transpose into the node reading it (``GemmTransposeFusion``: Gemm's ``transA`` / ``transB``;
``MatmulTransposeFusion``: FusedMatMul's; the transpose optimizer: a Transpose pushed through or cancelled;
names in ``passcheck/attribution/ort_transformers.json``) must read ``perm``: on a rank-2 operand the only
permutations are the identity and the swap, and only the swap is a transpose of the matrix.

:mod:`passcheck.mutations.neutral_ops` writes the same Transpose as one of its single ops
(``VALUE:transpose-identity``), among about 25 ops on every value, and a hunt keeps a few of a rewrite's
single sites per base (:func:`passcheck.mutations.forms.enumerate_forms`, ``max_sites``): on
``fusion-matmul/matmul-add-r2`` (``x`` read by MatMul) 3 of its 69 sites. Here the sites are the values
alone, so a Transpose before each operand a pass can fold is offered on every base that has it.

Sites (:mod:`passcheck.mutations._value_sites`): ``VALUE`` (the Transpose between the value and all its readers; a
graph output keeps its name) and ``VALUE->READER`` (on the edge into one reader of a value read more than once);
values of known rank ≥ 1 that are not computed from constants alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.mutations import _value_sites
from passcheck.mutations._base import Rewrite
from passcheck.mutations._value_sites import inserted
from passcheck.mutations.catalogue import Freedom
from passcheck.mutations.neutral import SHAPE_OPS

if TYPE_CHECKING:
    import onnx

#: The step that writes the Transpose (shared with :mod:`passcheck.mutations.neutral_ops`).
STEP = dict(SHAPE_OPS)["transpose-identity"]


def transpose_identity(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """An identity-``perm`` Transpose on each value site (``only``: those labels), in place; the labels changed."""
    return _value_sites.insert(model, only, [("transpose-identity", STEP)], edges=True)


REWRITES = (
    Rewrite(
        "transpose-identity",
        "a value x of rank r → Transpose(x, perm=[0, …, r-1]) (site VALUE or VALUE->READER)",
        transpose_identity,
        inverse="neutral-remove",
        detail="values",
        site_signature=inserted("Transpose"),
        lists=True,
    ),
)

FREEDOMS = (
    Freedom(
        "transpose-identity-perm",
        "operator schemas",
        "Operators.md Transpose (perm: any permutation of the axes; output dim i is input dim perm[i])",
        "A Transpose whose perm is the identity permutation may stand between a value and its readers; a pass that "
        "folds a Transpose into its reader must tell it from the swap.",
        ("transpose-identity",),
        "one main-graph value of known rank that is not static (site VALUE or VALUE->READER)",
    ),
)
