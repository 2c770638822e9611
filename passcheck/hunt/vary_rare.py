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

The ``attr-<name>`` kinds declare none: a schema attribute is met by every base holding its op, and the generated
set holds cases of every op, so the sample meets them as often as their ops; read as a precondition over the op
types, 204 of them counted as rare over the full set and finding their bases took 54 s of a hunt's budget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from passcheck.hunt import vary_group, vary_scale

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


def kinds() -> list[str]:
    """Every kind with a precondition (:data:`PRECONDITIONS`)."""
    return sorted(PRECONDITIONS)


class Rare:
    """The rare kinds of ``bases`` (module docs), rarest first, and the bases offering each.

    ``sample``: bases drawn per step; ``seed``: the neighbours' seed (:meth:`.space.Base.variations`)."""

    def __init__(self, bases: Sequence[Base], sample: int, seed: int):
        self.seed = seed
        meeting: dict[str, list[Base]] = {}
        ops = {b.id: set(_ops(b)) for b in bases}
        for k in kinds():
            need = precondition(k) or frozenset()
            hit = [b for b in bases if need & ops[b.id]]
            if hit and len(hit) * sample < len(bases):
                meeting[k] = hit
        #: rare kind → the bases meeting its precondition, rarest first (ties by kind)
        self.meeting = dict(sorted(meeting.items(), key=lambda kv: (len(kv[1]), kv[0])))
        self._offers: dict[tuple[str, str], bool] = {}

    @classmethod
    def of(cls, bases: Sequence[Base], sample: int, seed: int) -> Rare:
        """``Rare(bases, sample, seed)``, the one made before for the same bases (by id), sample and seed (a hunt
        rebuilds its scheduler as its map grows: :mod:`.lazymap`)."""
        key = (tuple(b.id for b in bases), sample, seed)
        if key not in _MADE:
            _MADE.clear()
            _MADE[key] = cls(bases, sample, seed)
        return _MADE[key]

    def offering(self, kind: str, keep: Callable[[Base], bool] | None = None) -> list[Base]:
        """The bases whose neighbours include ``kind`` (a rare kind), in :attr:`meeting` order; ``keep``: only among
        the bases it keeps, asked first, so a base it drops never builds its neighbours. Each base's answer is
        computed once."""
        tail = f"vary:{kind}@"
        out = []
        for b in self.meeting.get(kind, ()):
            if keep is not None and not keep(b):
                continue
            if (kind, b.id) not in self._offers:
                self._offers[kind, b.id] = any(f.startswith(tail) for f in b.variations(self.seed))
            if self._offers[kind, b.id]:
                out.append(b)
        return out


_MADE: dict[tuple, Rare] = {}


def _ops(base: Base) -> tuple[str, ...]:
    try:
        return base.ops()
    except Exception:  # noqa: BLE001 - a base this onnx cannot build has no ops (and no neighbours)
        return ()
