"""Rewrites whose precondition few bases meet, split by the element type of what they write: the hunt's rare
rewrite units.

A hunt's step samples :data:`~passcheck.hunt.scheduler.SAMPLE` of ~11,000 bases, so a rewrite whose precondition
(:mod:`.preconditions`: the op types its sites touch on the probes) only a few dozen bases meet is drawn when one
of them happens to be sampled: ``list-attributes-as-tensor`` meets the LabelEncoder and TreeEnsemble bases alone
(36 of 11,186 with onnx 1.23.2). A rewrite is *rare* when the bases meeting its precondition are fewer than one per
sample on average (``count * sample < bases``, the rule :mod:`.vary_rare` applies to neighbours).

A rare rewrite's *units* are its sites on (a seeded sample of at most :data:`LOOK` of) the bases meeting it,
grouped by the element types of what the rewrite writes there (:func:`written`: the initializers and attributes of
the rewritten model that the base does not hold, an attribute tensor's ``data_type``, a list's type): at an INT64
LabelEncoder ``list-attributes-as-tensor`` writes INT64 tensors, at a STRING one a STRING ``values_tensor``, at a
TreeEnsemble FLOAT ``*_as_tensor`` ones: three units. The scheduler gives the units a share of the rewrite steps of
their own (:meth:`.scheduler.Scheduler._rare_rewrite_item`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from passcheck.hunt import preconditions
from passcheck.hunt.bases_memo import BasesMemo

if TYPE_CHECKING:
    from passcheck.hunt.space import Base

#: Bases meeting a rare rewrite whose sites are asked for its units (a seeded sample of them; all when fewer).
LOOK = 32


def elems(label: str, types: dict[str, str]) -> str:
    """The element type text of site ``label`` (:func:`.site_kind.types` gives ``<rank>:<ELEM,…>`` per piece): the
    sorted element types its pieces name, joined by ``,``; ``?`` when none is known."""
    from passcheck.hunt.site_kind import pieces

    got: set[str] = set()
    for p in pieces(label, types):
        got.update(x for x in types[p].split(":")[-1].split(",") if x and x != "?")
    return ",".join(sorted(got)) or "?"


def written(model, rid: str, label: str | None) -> str:
    """The element types of what rewrite ``rid`` writes into ``model`` at site ``label`` (None: every site), sorted
    and joined by ``,``: of each initializer and main-graph node attribute of the rewritten model that ``model``
    does not hold byte for byte, a tensor's ``data_type`` and a list's or scalar's type
    (:func:`.site_kind.attribute_elems`); ``?`` when it writes none (or does not apply).

    Raises:
        passcheck.mutations._base.RewriteError: the rewrite raised."""
    from passcheck.mutations.registry import REWRITES

    built = REWRITES[rid].apply(model, None if label is None else [label])
    if built is None:
        return "?"
    before = _typed(model)
    got = {e for key, es in _typed(built[0]).items() if key not in before for e in es}
    return ",".join(sorted(got)) or "?"


def _typed(model) -> dict[bytes, set[str]]:
    """Serialized initializer / node attribute → its element type names."""
    from onnx import NodeProto, TensorProto

    from passcheck.hunt.site_kind import attribute_elems

    out: dict[bytes, set[str]] = {}
    for t in model.graph.initializer:
        out[b"t" + t.SerializeToString()] = {TensorProto.DataType.Name(t.data_type)} if t.data_type else set()
    for n in model.graph.node:
        for a in n.attribute:
            one = NodeProto()
            one.attribute.append(a)
            out[b"a" + n.op_type.encode() + a.SerializeToString()] = attribute_elems(one)
    return out


class RareRewrites:
    """The rare rewrites of ``bases`` (module docs) and, on first need, their units.

    ``sample``: bases drawn per step; ``seed``: the sample of bases each rewrite's sites are asked on;
    ``pre``: the observed preconditions (:class:`.preconditions.Preconditions`)."""

    def __init__(self, bases: Sequence[Base], sample: int, seed: int, pre: preconditions.Preconditions):
        self.seed = seed
        found = {}
        ops = [(b, frozenset(preconditions.ops_of(b))) for b in bases]
        for rid, need in pre.rewrites.items():
            hit = [b for b, have in ops if need & have]
            if hit and len(hit) * sample < len(bases):
                found[rid] = hit
        #: rare rewrite id → the bases meeting its precondition, rarest first (ties by id)
        self.meeting = dict(sorted(found.items(), key=lambda kv: (len(kv[1]), kv[0])))
        self._units: dict[str, dict[str, list[tuple[str, str]]]] = {}

    def units(self, rid: str) -> dict[str, list[tuple[str, str]]]:
        """Rare rewrite ``rid``'s units: the element types it writes (:func:`written`) → its (base id, form) sites, a
        single-site form
        ``rid@label`` where the rewrite has more than one site on the base, else ``rid``; computed once, on a seeded
        sample of :data:`LOOK` of the bases meeting it. Empty for a rewrite that is not rare."""
        if rid not in self._units:
            from passcheck.mutations import forms as hforms
            from passcheck.mutations.registry import REWRITES

            bases = self.meeting.get(rid, [])
            rng = random.Random(f"{self.seed}:{rid}:rare")
            got: dict[str, list[tuple[str, str]]] = {}
            for b in sorted(rng.sample(bases, min(LOOK, len(bases))), key=lambda b: b.id):
                try:
                    model = b.model()
                    labels = REWRITES[rid].sites(model)
                    single = hforms.has_sites(rid) and len(labels) > 1
                    for label in labels if single else labels[:1]:
                        key = written(model, rid, label if single else None)
                        got.setdefault(key, []).append((b.id, f"{rid}@{label}" if single else rid))
                except Exception:  # noqa: BLE001 - a base this onnx cannot build (or rewrite) offers no unit
                    continue
            self._units[rid] = dict(sorted(got.items()))
        return self._units[rid]

    @classmethod
    def of(cls, bases: Sequence[Base], sample: int, seed: int) -> RareRewrites:
        """``RareRewrites(bases, sample, seed, Preconditions.of(bases, seed))``, the one made before for the same
        Base objects (by identity, :mod:`.bases_memo`), sample and seed (a hunt rebuilds its scheduler as its map
        grows)."""
        return _MADE.get(
            bases, (sample, seed), lambda: cls(bases, sample, seed, preconditions.Preconditions.of(bases, seed))
        )


_MADE: BasesMemo[RareRewrites] = BasesMemo()
