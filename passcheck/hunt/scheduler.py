"""Coverage-guided choice of the next item: toward untried (op type, rewrite kind, pass) triples.

Each step draws a sample of bases with a generator seeded by ``(seed, step)``, lists their untried
items and takes the one with the largest share of untried triples (halved for a depth-2 form, so
single rewrites come first; a share, so a base with many op types does not crowd out the others),
ties broken by the same generator. The choice depends only on the seed, the step and the
items already tried, so a run is reproducible and a resumed run continues as an uninterrupted one.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from passcheck.mutations import forms as hforms
from passcheck.hunt.signature import site_ops
from passcheck.hunt.space import Base, Item

#: Bases drawn per step (each has tens of forms × the passes: plenty of untried items to choose from).
SAMPLE = 8
Triple = tuple[str, str, str]


class Scheduler:
    """Picks items from ``bases`` × their forms × ``passes`` (see module docs)."""

    def __init__(self, bases: Sequence[Base], passes: Sequence[str], seed: int):
        self.bases, self.passes, self.seed = list(bases), list(passes), seed
        self.by_id = {b.id: b for b in self.bases}
        self.tried: set[Triple] = set()
        self.done: set[str] = set()
        self.dead: set[str] = set()  # bases that do not run on their feeds: no item of theirs can be judged
        self._ops: dict[tuple[str, str], tuple[str, frozenset[str]]] = {}  # (base, form) → (rewrite kind, ops)

    def triples(self, item: Item) -> set[Triple]:
        """The (op type, rewrite kind, pass) triples ``item`` covers: the ops at its site, or every op of its base."""
        if (item.base, item.form) not in self._ops:
            base = self.by_id[item.base]
            labels = [s for _, s in hforms.parts(item.form) if s is not None]
            ops = site_ops([base.model()], labels) if labels else set()
            self._ops[item.base, item.form] = (hforms.kind(item.form), frozenset(ops or base.ops()))
        kind, ops = self._ops[item.base, item.form]
        return {(op, kind, item.pass_id) for op in ops}

    def mark(self, item: Item, triples: Iterable[Triple] | None = None, base_fails: bool = False) -> None:
        """Record ``item`` as tried (its triples recomputed unless given, e.g. from a saved state);
        ``base_fails``: its base does not run, so no other item of that base is picked."""
        self.done.add(item.key)
        if base_fails:
            self.dead.add(item.base)
        self.tried.update(tuple(t) for t in (triples if triples is not None else self.triples(item)))

    def next(self, step: int) -> Item | None:
        """The item for ``step``, or None when every item of the space has been tried."""
        rng = random.Random(f"{self.seed}:{step}")
        order = self.bases if len(self.bases) <= SAMPLE else rng.sample(self.bases, SAMPLE)
        best = self._best(order, rng)
        if best is None and len(self.bases) > SAMPLE:  # the sample is used up: look at every base
            best = self._best(self.bases, rng)
        return best

    def _best(self, bases: Sequence[Base], rng: random.Random) -> Item | None:
        best, best_score = None, None
        for base in bases:
            if base.id in self.dead:
                continue
            for form in base.forms(self.seed):
                depth = len({r for r, _ in hforms.parts(form)})
                for p in self.passes:
                    item = Item(base.id, form, p)
                    if item.key in self.done:
                        continue
                    triples = self.triples(item)
                    score = (len(triples - self.tried) / len(triples) / depth, rng.random())
                    if best_score is None or score > best_score:
                        best, best_score = item, score
        return best
