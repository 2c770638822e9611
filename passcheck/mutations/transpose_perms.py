"""An op computed in a layout of the writer's choosing (``transpose-conjugate-perm``): ``op(x)`` →
``Transpose(op'(Transpose(x, p)), inverse p)`` as in :mod:`passcheck.mutations.transpose_conjugate`, for *every*
permutation ``p`` of the value's axes, not the one fixed layout that rewrite writes.

Operators.md Transpose-1/13/21: ``perm`` is any permutation of the axes (output dim ``i`` is input dim
``perm[i]``), and a Transpose moves elements without computing on them, so each of the ``r!`` layouts gives the
same values (a reduction may add in another order: the equivalence gate's per-dtype tolerance, as for
``transpose-conjugate``). The passes that read a Transpose special-case some permutations: onnxruntime's
MatmulTransposeFusion folds a swap of the last two axes into FusedMatMul's ``transA`` / ``transB`` and a batch-axis
move into ``transBatchA`` / ``transBatchB`` (ContribOperators.md FusedMatMul), GemmTransposeFusion the rank-2 swap,
the transpose optimizer cancels and pushes Transposes by composing their perms, onnxscript's rules match given
perms. The fixed layout (reversed axes at rank 3) reaches none of the batch-axis cases; here each permutation is a
site of its own, so a hunt's seed draws which one a form writes and a finding names it.

Sites: the nodes :mod:`passcheck.mutations.transpose_conjugate` handles, of rank 2 to :data:`MAX_RANK`, one site per
(node, permutation the op's plan takes) as ``NODE:perm-P`` with P the permutation's axes joined by dots
(``relu:perm-1.0.2``), the identity included, in lexicographic order of the permutations (2 at rank 2, 6 at rank 3,
24 at rank 4). All at once: one non-identity permutation per node, chosen by the CRC-32 of the node's label (so the
all-at-once forms of different bases, and the depth-2 pairs built on them, do not all write one layout;
independent of the hash seed). New values are named fresh and left unannotated; the node's outputs keep their
names.
"""

from __future__ import annotations

import itertools
import zlib
from typing import TYPE_CHECKING

from passcheck.mutations import _base as B
from passcheck.mutations._conjugate_ops import Layout, layout_of
from passcheck.mutations._freedom import Freedom
from passcheck.mutations.transpose_conjugate import conjugate_in

if TYPE_CHECKING:
    import onnx

#: Ranks above this are left alone (5! = 120 layouts per node).
MAX_RANK = 4


def perm_label(node_label: str, p: tuple[int, ...]) -> str:
    """The site label of node ``node_label`` conjugated by ``p``: ``NODE:perm-1.0.2``."""
    return f"{node_label}:perm-{'.'.join(map(str, p))}"


def perms(r: int) -> list[tuple[int, ...]]:
    """Every permutation of ``range(r)`` in lexicographic order (the identity first); [] above :data:`MAX_RANK`."""
    return list(itertools.permutations(range(r))) if 2 <= r <= MAX_RANK else []


def _all_at_once(label: str, r: int) -> list[tuple[int, ...]]:
    """The non-identity permutations of rank ``r``, rotated to start at the one the CRC-32 of ``label`` picks."""
    rest = perms(r)[1:]
    if not rest:
        return []
    k = zlib.crc32(label.encode()) % len(rest)
    return rest[k:] + rest[:k]


def conjugate_perm(model: onnx.ModelProto, only: frozenset[str] | None = None) -> list[str]:
    """Each site ``NODE:perm-P`` (module docs) → the node computed in layout P, in place; with ``only`` None one
    permutation per node (module docs). The labels changed, in model order; under :data:`._base.LISTING` every
    site's label and the model untouched."""
    listing = B.LISTING.get()

    def layouts(label: str, r: int) -> list[tuple[str, Layout]]:
        if listing:
            chosen = perms(r)
        elif only is None:
            chosen = _all_at_once(label, r)
        else:
            chosen = [p for p in perms(r) if perm_label(label, p) in only]
        return [(perm_label(label, p), layout_of(p)) for p in chosen]

    return conjugate_in(model, layouts, listing=listing)


REWRITES = (
    B.Rewrite(
        "transpose-conjugate-perm",
        "op(x) → Transpose(op'(Transpose(x, p)), inverse p) for every permutation p of x's axes (rank 2–4; site "
        "NODE:perm-P), op' with its axes moved through p (the ops of transpose-conjugate)",
        conjugate_perm,
        lists=True,
        alternatives=True,
    ),
)

FREEDOMS = (
    Freedom(
        "permuted-layout-any",
        "algebra",
        "Operators.md Transpose-1/13/21 (perm: any permutation of the axes; output dim i is input dim perm[i]) and "
        "the schemas of the ops conjugated (as permuted-layout)",
        "An op may be computed in any layout of its axes, not only the reversed or channels-last one: each "
        "permutation gives the same values, and a pass that folds or cancels a Transpose must read which one.",
        ("transpose-conjugate-perm",),
        "the nodes of permuted-layout of rank 2 to 4; one site per (node, permutation) as NODE:perm-P, the "
        "identity included (2, 6 or 24 per node); all at once, one non-identity permutation per node chosen by "
        "the CRC-32 of its label",
    ),
)
