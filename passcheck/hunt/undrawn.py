"""What a hunt has never drawn under a pass (round 13h, M204; round 14d, M225): the neighbour kinds the bases listed
so far offer with no item under it, most sites first, and whether every rewrite those bases offer has an item.

Every neighbour kind is a freedom Operators.md / IR.md allows (each kind's module says which) and none is preferred,
so a kind with sites on the listed bases and no item under a pass is the untried part of the space. A rewrite step
is the rewrite search's (a rewrite-only defect, such as a pass skipping one spelling, is met there): the scheduler
gives such a step to a never-drawn kind only once :func:`rewrites_drawn` holds, and no variation step
(a share of those moved the rewrite steps after them: docs/recall.md, round 14d). Pure functions over what the
scheduler already holds: nothing is built here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping


def undrawn_kinds(
    offered: Iterable[tuple[str, Mapping[str, int]]],
    drawn: set[str],
    allowed: Callable[[str], bool],
    tie: Callable[[str], int],
) -> list[tuple[str, dict[str, int]]]:
    """The kinds (as the bases spell them, ``vary:value-zero``) no item under the pass has drawn, each with
    base id → its sites there, the kind with the most sites over those bases first, ties by ``tie(kind)``.

    ``offered``: (base id, :meth:`.space.Base.offered` of a listed base the pass draws); ``drawn``: the kinds
    without their ``vary:`` prefix with an item under the pass; ``allowed``: whether the hunt takes a bare kind
    (``--vary-kind``)."""
    at: dict[str, dict[str, int]] = {}
    for base_id, kinds in offered:
        for kind, n in kinds.items():
            bare = kind.split(":", 1)[1]
            if n and bare not in drawn and allowed(bare):
                at.setdefault(kind, {})[base_id] = n

    return sorted(at.items(), key=lambda kv: (-sum(kv[1].values()), tie(kv[0])))


def rewrites_drawn(
    applied: Iterable[Iterable[str]], drawn_kinds: Iterable[str], allowed: Callable[[str], bool]
) -> bool:
    """Whether every rewrite the listed bases offer has an item under the pass: each rewrite id of ``applied`` (per
    listed base, the rewrites that apply to it: :attr:`.space.Base.applied`) that ``allowed`` takes (``--rewrite``)
    is part of a kind of ``drawn_kinds`` (:func:`passcheck.mutations.forms.kind` of the pass's plain rewrite items:
    ``a+b`` for a pair). False while no base offers one (nothing listed is nothing drawn)."""
    drawn = {r for kind in drawn_kinds for r in kind.split("+")}
    seen = False
    for ids in applied:
        for rid in ids:
            if allowed(rid):
                if rid not in drawn:
                    return False
                seen = True
    return seen
