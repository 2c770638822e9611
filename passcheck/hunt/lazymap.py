"""The hunt's coverage map built inside its budget: rows observed in a seeded order as the steps need
them, and a visibility schedule that depends on the step alone.

Observing every base under every tool before the first item took minutes on a machine whose cache
was empty (3.5 min unloaded, 22 at load 6-15 for the full library, docs/hunt.md). Here the rows of
the hunt's bases (the first form of each case) are put in an order drawn from the seed. Rows are
observed (or read from the cache, :mod:`passcheck.coverage.cache`) at a fixed pace, :data:`FIRST`
before step 0 and :data:`CHUNK` more every :data:`STEPS_PER_CHUNK` steps (:meth:`LazyMap.paced`), each
chunk appended to the cache at once, so the next hunt reuses it. Step ``i`` sees the rows
``0 .. visible(i)``: the paced count rounded down to :data:`FIRST` times a power of two (all of them
once all are paced), so the scheduler and the pass plan are rebuilt from the rows about log2(M / 12)
times, not at every chunk (a rebuild of the 301-row map takes about a second at load 20). The
schedule never reads the cache's state or the clock: with an empty or a full cache, resumed, sharded
or not, step ``i`` draws from the same rows, so the items are the same. The cost of that promise: a
warm cache does not steer the first steps by the whole map.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

from passcheck.coverage.entry import TOOLS, PassScope
from passcheck.coverage.map import BATCH, CoverageMap, Rows, assemble, catalogue, observe_rows

#: Rows observed before step 0 (and seen by it); rows observed every :data:`STEPS_PER_CHUNK` steps
#: (one worker call's batch).
FIRST = CHUNK = BATCH
#: Steps between two chunks: 4 rows a step on average (the 301 hand-written bases are all seen from
#: step 75 on, the 3,650 of the full library from step 912).
STEPS_PER_CHUNK = 3


def order(bases: Sequence[Any], seed: int) -> list[Any]:
    """``bases`` in the order their rows are observed: by a hash of (seed, base id), so the first chunks
    sample the whole library rather than its first folders."""
    return sorted(bases, key=lambda b: hashlib.blake2b(f"{seed}:{b.id}".encode(), digest_size=8).digest())


class LazyMap:
    """The coverage map of ``bases`` as step ``i`` sees it (see module docs).

    Args:
        bases: the hunt's map bases (:class:`~passcheck.hunt.space.Base`, the first form of each case).
        seed: the hunt's seed (the row order).
        executor: the hunt's :class:`~passcheck.passes.isolation.IsolatedExecutor` (rows are observed in it).
        cache: a :class:`~passcheck.coverage.cache.Cache`, or None (nothing kept between runs).
        tools: the catalogue tools rows are observed under.
        passes: the passes named with ``--pass``, or None: only the tools of ``tools`` whose entries
            they run are observed (a row under another tool steers none of their items,
            :class:`~passcheck.hunt.scheduler._MapView`; observing every tool for one ``--pass`` spent
            half a 2-minute budget, docs/hunt.md).
        on_row: called with a base id once its row is known (observed or read from the cache).
        first, chunk, steps_per_chunk: the schedule (:data:`FIRST`, :data:`CHUNK`, :data:`STEPS_PER_CHUNK`).
    """

    def __init__(
        self,
        bases: Sequence[Any],
        seed: int,
        executor,
        cache=None,
        *,
        tools: Sequence[str] = TOOLS,
        passes: Sequence[str] | None = None,
        on_row: Callable[[str], None] | None = None,
        first: int = FIRST,
        chunk: int = CHUNK,
        steps_per_chunk: int = STEPS_PER_CHUNK,
    ):
        self.order = order(bases, seed)
        self.executor, self.cache, self.on_row = executor, cache, on_row
        self.first, self.chunk, self.steps_per_chunk = first, chunk, steps_per_chunk
        self._tools, self._passes = tools, passes
        self._catalogue: tuple[dict, dict] | None = None
        self.rows = Rows()
        self.ready = 0  # leading rows of :attr:`order` known
        self._maps: dict[int, CoverageMap] = {}

    @property
    def total(self) -> int:
        return len(self.order)

    def paced(self, step: int) -> int:
        """How many rows (of :attr:`order`) are observed before step ``step`` runs."""
        return min(self.total, self.first + self.chunk * (step // self.steps_per_chunk))

    def visible(self, step: int) -> int:
        """How many rows step ``step`` sees: :meth:`paced` rounded down to :attr:`first` times a power
        of two, or all once all are paced (a function of the step alone)."""
        paced = self.paced(step)
        if paced >= self.total or paced <= self.first:
            return paced
        return self.first << ((paced // self.first).bit_length() - 1)

    def entries(self) -> tuple[dict, dict]:
        """(tool → catalogue entries, tool → why it has none here), read once (cached per tool version);
        with ``passes`` (the constructor's), of the tools whose entries they run only (:meth:`PassScope.tools`)."""
        if self._catalogue is None:
            entries, missing = catalogue(self.executor, self._tools, self.cache)
            if self._passes is not None:
                every = [e for es in entries.values() for e in es]
                run = PassScope(every).tools(every, self._passes)
                self._tools = [t for t in self._tools if t in run]
                entries = {t: es for t, es in entries.items() if t in self._tools}
                missing = {t: why for t, why in missing.items() if t in self._tools}
            self._catalogue = (entries, missing)
        return self._catalogue

    @property
    def tools(self) -> list[str]:
        """The tools whose rows are observed (those with a catalogue here, after :meth:`entries`)."""
        entries, _ = self.entries()
        return [t for t in self._tools if t in entries]

    def observe(self, n: int) -> None:
        """Know the first ``n`` rows: observe the missing ones, :attr:`chunk` at a time, each chunk
        appended to the cache (rows other hunts appended since are read first)."""
        tools = self.tools
        while self.ready < min(n, self.total):
            if self.cache is not None:
                self.cache.reload()
            batch = self.order[self.ready : self.ready + self.chunk]
            self.rows.update(observe_rows(batch, self.executor, tools, self.cache, self.on_row))
            self.ready += len(batch)

    def at(self, step: int) -> CoverageMap:
        """The map step ``step`` sees (rows observed first when missing)."""
        n = self.visible(step)
        if n not in self._maps:
            self.observe(n)
            entries, unavailable = self.entries()
            self._maps = {n: assemble(entries, unavailable, self.rows, [b.id for b in self.order[:n]])}
        return self._maps[n]


class Steering:
    """What steers step ``i`` of a hunt (:func:`passcheck.hunt.search.hunt`): the map ``lazy`` shows it
    and the pass plan ``plan_for`` makes of that map (:func:`passcheck.hunt.passes.relevant`: a case
    whose row is not seen yet draws from its defaults and declared passes, as with ``--no-coverage``;
    or the fixed plan of ``--pass``)."""

    def __init__(self, lazy: LazyMap, plan_for: Callable[[CoverageMap], Any]):
        self.lazy, self._plan_for = lazy, plan_for
        self._plans: dict[int, Any] = {}

    def visible(self, step: int) -> int:
        return self.lazy.visible(step)

    def plan(self, step: int):
        """The :class:`~passcheck.hunt.passes.PassPlan` of step ``step``."""
        n = self.visible(step)
        if n not in self._plans:
            self._plans = {n: self._plan_for(self.lazy.at(step))}
        return self._plans[n]

    def at(self, step: int) -> tuple[CoverageMap, list[str], Callable[[str], Sequence[str]] | None]:
        """(map, passes, base id → its passes or None for ``--pass``) of step ``step``."""
        plan = self.plan(step)
        from passcheck.hunt.passes import passes_of

        return self.lazy.at(step), plan.passes, passes_of(plan)

    def scope(self, step: int) -> dict[str, Any]:
        """The ``passes`` and ``pass_sets`` a hunt state records for an item of step ``step``."""
        plan = self.plan(step)
        return {"passes": plan.passes, "pass_sets": plan.digest()}
