"""Which op types a pass reads, and the bases holding each (round 10e, M106).

A neighbour kind or a rewrite can change what a pass does only where its sites touch a value a node the pass
matches reads: ``input-apart`` separates two reads of one input, which matters to a rule comparing the two dims
(onnxscript's ``ScatterAllDynamic`` compares ``Shape(data)[axis]`` with the dim ``ScatterND`` writes into), and
nothing to a pass that never looks at either node; ``axes-move`` moves the axes of a decomposed norm, which matters
to a fusion that searches from ``ReduceMean``. The scheduler's ordinary draws sample a few bases of the whole set
(11,308 with onnx 1.23.2), so such a kind meets the nodes a pass matches about as often as those nodes are held.

:func:`pass_reads` spells what a pass matches from the catalogue entries it runs (:mod:`passcheck.coverage`), the
tool's own account of itself: the op an inference function, a data propagator, a version adapter or a handler is
registered for (``Upsample:9->8``, ``Add@14``: :func:`.nearness.entry_ops`), the op types a rule's or transformer's
name spells (``FuseConvPad``, ``MaxFusion``: :func:`.entry_sites.named_ops`), the ``search_op_types`` an
onnxruntime transformers fusion starts from (its scope, ``search ReduceMean → LayerNormalization``), and the op types
the evidence observed it replace (``replaced ScatterND node``). :func:`holding` lists the bases holding each op
type (:meth:`.space.Base.ops`: a generated case's ``op:`` tags, no build). The scheduler's *aimed* steps
(:meth:`.scheduler.Scheduler._aimed_item`) draw on those bases, at sites touching the op.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from passcheck.hunt.bases_memo import BasesMemo

if TYPE_CHECKING:
    from passcheck.coverage.entry import Entry
    from passcheck.hunt.space import Base


def entry_reads(entry: Entry, effects: Iterable[str] = ()) -> frozenset[str]:
    """The op types catalogue ``entry`` reads (module docs): its registered op, the ops its name and its scope spell,
    and those ``effects`` (its observed evidence) say it replaced."""
    from passcheck.hunt.entry_sites import named_ops
    from passcheck.hunt.nearness import entry_ops

    return entry_ops(entry, effects) | named_ops(entry.name) | named_ops(entry.scope)


def pass_reads(
    entries: Iterable[Entry], runs, pass_id: str, evidence: Mapping[str, Sequence] | None = None
) -> frozenset[str]:
    """The op types ``pass_id`` reads: :func:`entry_reads` over the ``entries`` it runs (``runs(entry, pass_id)``,
    :meth:`passcheck.coverage.entry.PassScope.runs`); ``evidence``: entry key → its evidence (``.effect`` each)."""
    entries = list(entries)
    ran = {e.key: [pass_id] for e in entries if runs(e, pass_id)}
    return reads_by_pass(entries, ran, evidence).get(pass_id, frozenset())


def reads_by_pass(
    entries: Iterable[Entry], ran: Mapping[str, Sequence[str]], evidence: Mapping[str, Sequence] | None = None
) -> dict[str, frozenset[str]]:
    """Pass id → the op types it reads (:func:`pass_reads` of each), every pass of ``ran`` (entry key → the passes
    that run that entry) in one walk of ``entries``: each entry's reads are spelt once, not once per pass (a hunt's
    scheduler asks this of ~4,400 entries and ~110 passes at each map rebuild, session 34, M200). A pass that runs no
    entry is left out."""
    out: dict[str, set[str]] = {}
    for e in entries:
        if passes := ran.get(e.key):
            reads = entry_reads(e, [x.effect for x in (evidence or {}).get(e.key, ())])
            for p in passes:
                out.setdefault(p, set()).update(reads)
    return {p: frozenset(r) for p, r in out.items()}


def holding(bases: Sequence[Base]) -> dict[str, list[Base]]:
    """Op type → the bases holding it (:meth:`.space.Base.ops`), in id order; memoized per list of Base objects (by
    identity, :mod:`.bases_memo`: the answer holds the bases)."""
    from passcheck.hunt.preconditions import ops_of

    def make() -> dict[str, list[Base]]:
        out: dict[str, list[Base]] = {}
        for b in sorted(bases, key=lambda b: b.id):
            for op in ops_of(b):
                out.setdefault(op, []).append(b)
        return out

    return _HELD.get(bases, None, make)


_HELD: BasesMemo[dict[str, list[Base]]] = BasesMemo()
