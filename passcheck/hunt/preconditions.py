"""A rewrite's or neighbour kind's precondition, read off what it matches: the op types its sites touch on one
probe base per op type.

Most rewrites and neighbours are schema-driven: ``list-attributes-as-tensor`` applies where a node's schema pairs a
list attribute with a TENSOR sibling (Operators-ml.md LabelEncoder-4, TreeEnsemble*-3), ``empty-optional-outputs``
where a schema declares an optional output (IR.md "Optional Inputs and Outputs"), ``group`` where a Conv's channels
share a divisor. The ops that satisfy such a rule are a property of the schemas, not something a hand list per
kind should repeat. So the precondition is observed: the *probes* are one base per op type of the hunt's bases
(the first by id holding it, read from the generated cases' ``op:`` tags without building the others), every
rewrite's :meth:`~passcheck.mutations._base.Rewrite.sites` and every neighbour (:func:`.variation.neighbours`) is
asked on each probe, and a kind's precondition is the op types its sites touched there
(:func:`passcheck.signature.site_ops`). A kind seen on at least :data:`GENERIC` of the probes is generic (it needs
no particular op: ``rank-opaque-view`` on any value an op reads, ``deep-identity-chain``), so is an elem neighbour
(no site labels) and an ``attr-<name>`` neighbour (its op is the attribute's schema: every base holding that op
meets it, and the generated set holds every op, see :mod:`.vary_rare`); none of these declares a precondition.

Seen on a probe is sufficient for the op, not necessary for every base holding it (a Conv whose channels share no
divisor): the bases *meeting* a precondition are candidates, and the scheduler asks the kind's sites on them before
drawing one (:mod:`.rare_rewrites`, :class:`.vary_rare.Rare`).

Cost: one ``sites`` call per rewrite and probe and one neighbour listing per probe (on the generated set of onnx
1.23.2 and the library, 11,186 bases: about 300 probes × 229 rewrites, 20–60 s at the load of a shared 2-core
machine), once per set of probes and sources: the answer is kept in the cache folder (:func:`cached`).
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from passcheck.hunt.bases_memo import BasesMemo

if TYPE_CHECKING:
    from passcheck.hunt.space import Base

#: A kind whose sites touch the op of at least this share of the probes is generic: it declares no precondition.
GENERIC = 0.5
#: The probe sites kept per generic neighbour unit (:attr:`Preconditions.units`).
UNIT_SITES = 16


def probes(bases: Sequence[Base]) -> list[Base]:
    """Per op type of ``bases`` (their :meth:`~.space.Base.ops`), the first base by id holding it at the oldest and at
    the newest schema version the bases hold (a generated case's ``since:`` tag; 0 for a hand-written case): the
    schema features a kind matches change between versions (LabelEncoder-4 adds the TENSOR siblings of its lists).
    In id order, each once. Memoized per list of base ids (:func:`probe_set`)."""
    return probe_set(bases).probed


class ProbeSet:
    """One walk over the bases' op types (round 9e): :attr:`probed` (:func:`probes`), :attr:`holding` (op type → the
    bases holding it) and :attr:`by_op` (op type → its probe bases, in id order). The cache key (:func:`cached`),
    :class:`Preconditions` and the scheduler's rare-op steps all read this one object."""

    def __init__(self, bases: Sequence[Base]):
        since: dict[str, dict[int, Base]] = {}
        #: op type → how many of the bases hold it
        self.holding: dict[str, int] = {}
        for b in sorted(bases, key=lambda b: b.id):
            v = next((int(t[6:]) for t in b.case.tags if t.startswith("since:") and t[6:].isdigit()), 0)
            for op in ops_of(b):
                since.setdefault(op, {}).setdefault(v, b)
                self.holding[op] = self.holding.get(op, 0) + 1
        chosen = {b.id: b for by in since.values() for b in (by[min(by)], by[max(by)])}
        #: the probe bases, in id order
        self.probed: list[Base] = [chosen[k] for k in sorted(chosen)]
        #: op type → its probe bases holding it, in id order
        self.by_op: dict[str, list[Base]] = {}
        for b in self.probed:
            for op in ops_of(b):
                self.by_op.setdefault(op, []).append(b)


def probe_set(bases: Sequence[Base]) -> ProbeSet:
    """``ProbeSet(bases)``, the one made last for the same Base objects (a hunt asks three times: the cache key,
    :meth:`Preconditions.of`, the scheduler's op steps; by identity, :mod:`.bases_memo`: a ProbeSet holds the bases,
    and another hunt's are not this one's)."""
    return _PROBED.get(bases, None, lambda: ProbeSet(bases))


_PROBED: BasesMemo[ProbeSet] = BasesMemo()


class Preconditions:
    """The observed preconditions of the rewrites (:attr:`rewrites`: rewrite id → op types) and neighbour kinds
    (:attr:`neighbours`: kind without ``vary:`` → op types) over ``bases`` (module docs); generic kinds are absent.

    ``seed``: the neighbours' sampling seed on the probes (their sites are sampled per kind, the kinds are not)."""

    def __init__(self, bases: Sequence[Base], seed: int = 0):
        from passcheck.hunt import neighbour_units, site_kind, variation
        from passcheck.mutations.registry import REWRITES
        from passcheck.signature import site_ops

        probed = probes(bases)
        units: dict[str, dict[str, list[tuple[str, str]]]] = {}
        seen_rw: dict[str, set[str]] = {}
        on_rw: dict[str, int] = {}
        seen_nb: dict[str, set[str]] = {}
        on_nb: dict[str, int] = {}
        for b in probed:
            try:
                model = b.model()
            except Exception:  # noqa: BLE001 - a base this onnx cannot build probes nothing
                continue
            for rid, rewrite in REWRITES.items():
                try:
                    labels = rewrite.sites(model)
                except Exception:  # noqa: BLE001 - a rewrite that cannot read this probe has no site on it
                    continue
                if labels:
                    on_rw[rid] = on_rw.get(rid, 0) + 1
                    seen_rw.setdefault(rid, set()).update(site_ops([model], labels))
            try:
                forms = variation.neighbours(model, random.Random(f"{seed}:{b.id}:vary"), b.case.bindings)
            except Exception:  # noqa: BLE001 - a base whose neighbours cannot be listed probes none
                forms = []
            types = None
            for f in forms:
                k = variation.kind(f)[len(variation.PREFIX) :]
                if k.startswith("attr-") or not variation.labels(f):
                    continue
                on_nb[k] = on_nb.get(k, 0) + 1
                seen_nb.setdefault(k, set()).update(variation.site_ops(model, f))
                types = site_kind.types(model) if types is None else types
                units.setdefault(k, {}).setdefault(neighbour_units.unit(model, f, types), []).append((b.id, f))
        n = len(probed)
        #: rewrite id → the op types one of which a base needs for it (generic rewrites absent)
        self.rewrites = {k: frozenset(v) for k, v in sorted(seen_rw.items()) if v and on_rw[k] < GENERIC * n}
        #: neighbour kind (no ``vary:``) → the op types one of which a base needs for it (generic kinds absent)
        self.neighbours = {k: frozenset(v) for k, v in sorted(seen_nb.items()) if v and on_nb[k] < GENERIC * n}
        #: generic neighbour kind (no ``vary:``, no precondition above) → its units on the probes (the rank and element
        #: type of what it changes, :func:`.neighbour_units.unit`) → the (probe base id, variation form) offering it,
        #: the first :data:`UNIT_SITES` by probe id (round 8e, M68)
        self.units = {
            k: {u: got[:UNIT_SITES] for u, got in sorted(us.items())}
            for k, us in sorted(units.items())
            if k not in self.neighbours
        }
        #: how many probes were asked
        self.probes = n

    @classmethod
    def of(cls, bases: Sequence[Base], seed: int = 0) -> Preconditions:
        """``Preconditions(bases, seed)``, the one made before for the same Base objects (:mod:`.bases_memo`) and seed
        in this process, or (:func:`cached`) for the same probe ids and seed in the cache folder."""
        return _MADE.get(bases, seed, lambda: cached(bases, seed))


def cached(bases: Sequence[Base], seed: int) -> Preconditions:
    """``Preconditions(bases, seed)`` read from, or written to, ``<cache>/hunt/preconditions-<key>.json``, the key a
    hash of the probes' ids, the seed, the onnx version and passcheck's rewrite and neighbour sources (what the
    answer is a function of). A cache that cannot be read or written is recomputed (never an error)."""
    import hashlib
    import json
    from pathlib import Path

    from passcheck._cache import cache_root
    from passcheck._versions import tool_version

    h = hashlib.sha256(f"{seed};onnx={tool_version('onnx')};".encode())
    h.update("\n".join(b.id for b in probes(bases)).encode())
    here = Path(__file__).parent
    for f in sorted([*here.glob("*.py"), *(here.parent / "mutations").glob("*.py")]):
        h.update(f.name.encode() + f.read_bytes())
    path = cache_root() / "hunt" / f"preconditions-{h.hexdigest()[:16]}.json"
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        got = Preconditions.__new__(Preconditions)
        got.rewrites = {k: frozenset(v) for k, v in doc["rewrites"].items()}
        got.neighbours = {k: frozenset(v) for k, v in doc["neighbours"].items()}
        got.probes = doc["probes"]
        got.units = {k: {u: [tuple(x) for x in v] for u, v in us.items()} for k, us in doc["units"].items()}
        return got
    except (OSError, ValueError, KeyError, TypeError):
        pass
    got = Preconditions(bases, seed)
    doc = {
        "rewrites": {k: sorted(v) for k, v in got.rewrites.items()},
        "neighbours": {k: sorted(v) for k, v in got.neighbours.items()},
        "probes": got.probes,
        "units": got.units,
    }
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}")
        tmp.write_text(json.dumps(doc, sort_keys=True), encoding="utf-8")
        tmp.replace(path)
    except OSError:
        pass
    return got


_MADE: BasesMemo[Preconditions] = BasesMemo()


def ops_of(base: Base) -> tuple[str, ...]:
    """``base.ops()``, or none for a base this onnx cannot build."""
    try:
        return base.ops()
    except Exception:  # noqa: BLE001 - a base this onnx cannot build has no ops (and no sites)
        return ()
