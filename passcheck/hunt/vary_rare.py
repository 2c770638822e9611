"""Neighbour kinds whose precondition few bases meet: which they are and which bases offer them.

A hunt's step samples :data:`~passcheck.hunt.scheduler.SAMPLE` bases and picks among their forms, so a kind that
only a handful of bases offer is drawn only when one of them happens to be sampled: ``value-floor-edge``
(:mod:`.vary_scale`) applies to Resize / Upsample ``scales`` on a static dim that is no power of two, one
library case of 1,147, and docs/found.md row 175 came only from a hunt limited to the Resize cases; ``group``
(:mod:`.vary_group`) needs a Conv / ConvTranspose whose channel counts share a divisor, 13 generated bases of
11,178. The
scheduler therefore asks this module for the *rare* kinds and their bases and gives them a share of the
variation steps of their own (:mod:`.scheduler`).

A kind's *precondition* is the op types a base must hold for the kind to apply at all, as the module that builds
the neighbour declares them (``READERS``): ``value-floor-edge`` needs a Resize / Upsample reading a constant
``scales`` (:data:`.vary_scale.READERS`). A kind is *rare* when the bases meeting its precondition are fewer than
one per sample on average (``count * sample < bases``). Meeting the precondition is necessary, not sufficient (the
dims must be static and no power of two): the bases that offer the kind are those among them whose neighbours
(:meth:`.space.Base.variations`, seeded, so the same on every run) include it, computed on first need (185 bases
of 10,797 meet it with the generated set, 0.5 s; 3 offer it, one case).

**Observed preconditions** (session 27, :mod:`.preconditions`): a kind without a declaration here takes the op types
its sites touch on one probe base per op type, when it is not generic there (``opt-fill`` on the ops with an
optional input, ``int-sentinel`` on Slice's bounds, ``shape-outrank`` on the broadcasting ops). Whether a base meeting
such a precondition offers the kind is asked on a seeded sample of :data:`LOOK` of them (their neighbours built),
not on all: an observed precondition is met by up to a tenth of the bases; a declared one keeps the full scan (3
bases of 185 offer ``value-floor-edge``).

The ``attr-<name>`` kinds declare none: a schema attribute is met by every base holding its op, and the generated
set holds cases of every op, so the sample meets them as often as their ops; read as a precondition over the op
types, 204 of them counted as rare over the full set and finding their bases took 54 s of a hunt's budget.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from passcheck.hunt import preconditions, vary_group, vary_scale
from passcheck.hunt.bases_memo import BasesMemo

if TYPE_CHECKING:
    from passcheck.hunt.space import Base

#: Variation kind (no ``vary:`` prefix) → the op types one of which a base needs for it (module docs): Resize /
#: Upsample for ``value-floor-edge``, Conv / ConvTranspose for ``group`` (whose channels must also share a divisor).
PRECONDITIONS: dict[str, frozenset[str]] = {
    **{k: vary_scale.READERS for k in vary_scale.KINDS},
    **{k: frozenset(vary_group.OPS) for k in vary_group.KINDS},
}


def precondition(kind: str) -> frozenset[str] | None:
    """The op types a base needs one of for variation ``kind`` (no ``vary:`` prefix) to apply, or None when the
    kind declares none (see module docs)."""
    return PRECONDITIONS.get(kind)


#: Bases meeting an observed precondition (not declared in :data:`PRECONDITIONS`) whose neighbours are built to
#: learn which offer the kind (a seeded sample; all when fewer).
LOOK = 16


def kinds() -> list[str]:
    """Every kind with a precondition (:data:`PRECONDITIONS`)."""
    return sorted(PRECONDITIONS)


class Rare:
    """The rare kinds of ``bases`` (module docs), rarest first, and the bases offering each.

    ``sample``: bases drawn per step; ``seed``: the neighbours' seed (:meth:`.space.Base.variations`);
    ``observed``: kind → the op types its sites touched on the probes (:attr:`.preconditions.Preconditions.neighbours`),
    for the kinds :data:`PRECONDITIONS` does not declare."""

    def __init__(self, bases: Sequence[Base], sample: int, seed: int, observed: Mapping[str, frozenset[str]] = {}):
        self.seed = seed
        meeting: dict[str, list[Base]] = {}
        ops = {b.id: set(preconditions.ops_of(b)) for b in bases}
        #: the kinds whose precondition is observed, not declared
        self.observed = {k for k in observed if precondition(k) is None}
        for k in sorted(set(kinds()) | self.observed):
            need = precondition(k) or observed.get(k) or frozenset()
            hit = [b for b in bases if need & ops[b.id]]
            if hit and len(hit) * sample < len(bases):
                meeting[k] = hit
        #: rare kind → the bases meeting its precondition, rarest first (ties: a declared precondition, which names
        #: what the neighbour's builder requires, before an observed one; then by kind)
        self.meeting = dict(sorted(meeting.items(), key=lambda kv: (len(kv[1]), kv[0] in self.observed, kv[0])))
        self._offers: dict[tuple[str, str], bool] = {}

    @classmethod
    def of(cls, bases: Sequence[Base], sample: int, seed: int) -> Rare:
        """``Rare(bases, sample, seed, Preconditions.of(bases, seed).neighbours)``, the one made before for the same
        Base objects (by identity, :mod:`.bases_memo`), sample and seed (a hunt rebuilds its scheduler as its map grows:
        :mod:`.lazymap`)."""
        return _MADE.get(
            bases,
            (sample, seed),
            lambda: cls(bases, sample, seed, preconditions.Preconditions.of(bases, seed).neighbours),
        )

    def offering(self, kind: str, keep: Callable[[Base], bool] | None = None) -> list[Base]:
        """The bases whose neighbours include ``kind`` (a rare kind), in :attr:`meeting` order; of an observed
        precondition's bases, those of a seeded sample of :data:`LOOK` (module docs). ``keep``: only among the
        bases it keeps, asked first, so a base it drops never builds its neighbours. Each base's answer is
        computed once."""
        tail = f"vary:{kind}@"
        look = list(self.meeting.get(kind, ()))
        if kind in self.observed and len(look) > LOOK:
            look = sorted(random.Random(f"{self.seed}:{kind}:rare").sample(look, LOOK), key=lambda b: b.id)
        out = []
        for b in look:
            if keep is not None and not keep(b):
                continue
            if (kind, b.id) not in self._offers:  # the kind's own candidates first: most bases have none
                self._offers[kind, b.id] = _quick(b, kind) is not False and any(
                    f.startswith(tail) for f in b.variations(self.seed)
                )
            if self._offers[kind, b.id]:
                out.append(b)
        return out


_MADE: BasesMemo[Rare] = BasesMemo()


def _quick(base: Base, kind: str) -> bool | None:
    """:func:`.variation.may_offer` of ``base``'s model (None when it cannot tell, or cannot read the model: the full
    listing then decides, as before)."""
    from passcheck.hunt import variation

    try:
        return variation.may_offer(base.model(), kind)
    except Exception:  # noqa: BLE001 - a base this onnx cannot build: Base.variations answers (no neighbours)
        return None
