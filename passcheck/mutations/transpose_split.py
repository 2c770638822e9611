"""One Transpose as two (``transpose-split``): ``Transpose(x, p)`` → ``Transpose(Transpose(x, q), r)`` with
``q[r[i]] = p[i]`` for every axis ``i``, neither ``q`` nor ``r`` the identity, and ``r[q[i]] ≠ p[i]`` for some ``i``
(for an identity ``p``, whose every split commutes, any such pair).

Operators.md Transpose-1/13/21: output dim ``i`` is input dim ``perm[i]`` (``perm`` omitted: the axes reversed), for
any permutation and every element type. Two Transposes then move dim ``q[r[i]]`` of ``x`` to position ``i``: the
same tensor as one Transpose by ``p``, element for element. The pair is chosen so that composing it in the other
order (``r[q[i]]``) gives another permutation: a pass that merges the two (onnxruntime's transpose optimizer,
``core/optimizer/transpose_optimization``; onnxscript's ``transpose_transpose`` rule) must compose them in the order
the spec gives, or pushes them through their reader one by one. Bases write at most one Transpose on a path; this
form is the only one where two non-inverse Transposes meet.

Sites: main-graph default-domain Transpose nodes whose rank is ≥ 3 (``len(perm)``, or the inferred rank of the input
when ``perm`` is omitted); on rank 2 the only split of the swap is ``swap ∘ identity``. One way: merging the pair is
the pass under test.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection
from typing import TYPE_CHECKING

from passcheck.mutations._base import Rewrite, all_names, fresh_name, is_default_domain, node_label
from passcheck.mutations._graph_edit import drop_attribute, set_nodes
from passcheck.mutations._only import wanted
from passcheck.mutations._shapes import known
from passcheck.mutations.catalogue import Freedom

if TYPE_CHECKING:
    import onnx

#: Ranks above this are left alone (the pair is found by walking permutations of the axes).
MAX_RANK = 6


def factor(perm: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """``(q, r)``, the first ``r`` in lexicographic order with ``q[r[i]] == perm[i]``, ``q`` and ``r`` not the
    identity and ``r[q[i]] != perm[i]`` for some ``i``; when ``perm`` is the identity (every split of it is a
    permutation and its inverse, which commute) the first pair with neither the identity; None when no pair exists
    (rank < 3)."""
    ident = tuple(range(len(perm)))
    fallback = None
    for r in itertools.permutations(ident):
        inv = [0] * len(r)
        for i, a in enumerate(r):
            inv[a] = i
        q = tuple(perm[inv[j]] for j in ident)
        if r == ident or q == ident or len(perm) < 3:
            continue
        if tuple(r[q[i]] for i in ident) != perm:
            return q, r
        fallback = fallback or (q, r)
    return fallback


def _perm(n: onnx.NodeProto, rank: int | None) -> tuple[int, ...] | None:
    for a in n.attribute:
        if a.name == "perm":
            return tuple(int(v) for v in a.ints)
    return None if rank is None else tuple(reversed(range(rank)))


def split(model: onnx.ModelProto, only: Collection[str] | None = None) -> list[str]:
    """Each site ``Transpose(x, p)`` → ``Transpose(Transpose(x, q), r)`` (:func:`factor`), in place; the node keeps
    its name and output and reads the new inner Transpose. Returns the labels changed, in node order."""
    import onnx

    g = model.graph
    types = None
    taken: set[str] | None = None
    sites, nodes = [], []
    for i, n in enumerate(g.node):
        label = node_label(n, i)
        nodes.append(n)
        if n.op_type != "Transpose" or not is_default_domain(n) or len(n.input) != 1 or not wanted(only, label):
            continue
        rank = None
        if not any(a.name == "perm" for a in n.attribute):
            types = known(model) if types is None else types
            k = types.get(n.input[0])
            rank = None if k is None else k.rank
        p = _perm(n, rank)
        pair = factor(p) if p is not None and 3 <= len(p) <= MAX_RANK else None
        if pair is None:
            continue
        q, r = pair
        taken = all_names(model) if taken is None else taken
        stem = n.name or n.output[0]
        mid = fresh_name(taken, f"{stem}_first")
        inner = onnx.helper.make_node(
            "Transpose", [n.input[0]], [mid], name=fresh_name(taken, f"{stem}_first_node"), perm=list(q)
        )
        nodes.insert(len(nodes) - 1, inner)
        n.input[0] = mid
        drop_attribute(n, "perm")
        n.attribute.append(onnx.helper.make_attribute("perm", list(r)))
        sites.append(label)
    if sites:
        set_nodes(g, nodes)
    return sites


REWRITES = (
    Rewrite(
        "transpose-split",
        "Transpose(x, p) → Transpose(Transpose(x, q), r), q[r[i]] = p[i], the other order another permutation "
        "(Transpose-1/13/21; rank >= 3)",
        split,
    ),
)

FREEDOMS = (
    Freedom(
        "transpose-composed",
        "operator schemas",
        "Operators.md Transpose-1/13/21 (output dim i is input dim perm[i]; perm omitted: the axes reversed)",
        "A Transpose by p is the same tensor as a Transpose by q followed by one by r whenever q[r[i]] = p[i]; a pass "
        "that merges two Transposes must compose them in that order.",
        ("transpose-split",),
        "main-graph Transpose nodes of rank 3 to 6 (perm's length, or the input's inferred rank when perm is "
        "omitted); the pair is chosen so that the other order gives another permutation; one way (merging is the "
        "pass under test)",
    ),
)
