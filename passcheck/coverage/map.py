"""The coverage map: every catalogue entry → the bases that trigger it, with the effect observed.

:func:`catalogue` reads each tool's entries in the isolation worker (cached per tool version);
:func:`compute` observes every base under every tool in the worker (:func:`observe_rows`, batched: one call observes
several bases; a batch whose worker dies is observed again one base at a time, so a base that
kills the tool costs itself only), caching each model's triggers by its digest.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from passcheck.coverage.entry import TOOLS, Entry, Evidence

#: Bases one worker call observes.
BATCH = 12
#: Seconds one base may take under all tools together (a batch's timeout is this times its size).
SECONDS_PER_BASE = 60.0
#: Seconds the catalogue read (every tool imported and listed, in the worker) may take.
CATALOGUE_SECONDS = 300.0


def catalogue(executor, tools: Sequence[str] = TOOLS, cache=None) -> tuple[dict[str, list[Entry]], dict[str, str]]:
    """(tool → entries, tool → why it has no catalogue here); read in the worker, cached.

    The read imports every tool (onnxruntime's transformers, onnxscript's rules: tens of seconds of CPU on a
    loaded machine), so it has :data:`CATALOGUE_SECONDS` whatever the executor's own time limit. A worker that
    dies or runs out of time reading it leaves every tool without a catalogue, with why (not cached, so the
    next run reads again). Raises nothing the worker causes."""
    from passcheck.coverage.worker import read_catalogue, tiny_model
    from passcheck.errors import WorkerDied

    data = cache.catalogue() if cache is not None else None
    if not data or any(t not in data for t in tools):
        saved = executor.timeout
        executor.timeout = None if saved is None else max(saved, CATALOGUE_SECONDS)
        try:
            data = executor.call(read_catalogue, tiny_model(), list(TOOLS))
        except WorkerDied as exc:
            why = f"the worker died reading the catalogue: {str(exc).splitlines()[0]}"
            data = {t: {"error": why} for t in TOOLS}
        finally:
            executor.timeout = saved
        if cache is not None and not any(isinstance(v, dict) for v in data.values()):
            cache.put_catalogue(data)
    entries, missing = {}, {}
    for t in tools:
        if isinstance(data[t], dict):
            missing[t] = data[t]["error"]
        else:
            entries[t] = [
                Entry(e["tool"], e["kind"], e["name"], tuple(e["passes"]), e["scope"], e["source"]) for e in data[t]
            ]
    return entries, missing


@dataclasses.dataclass
class CoverageMap:
    """Entries, the evidence for each (key → list of :class:`Evidence`), the bases observed, and
    per base the tools that could not read it (base → tool → error)."""

    entries: dict[str, Entry]
    evidence: dict[str, list[Evidence]]
    bases: list[str]
    errors: dict[str, dict[str, str]]
    #: key → a tool's own word on why it did not trigger
    reasons: dict[str, str] = dataclasses.field(default_factory=dict)
    unavailable: dict[str, str] = dataclasses.field(default_factory=dict)  # tool → why there is no catalogue
    base_ops: dict[str, list[str]] = dataclasses.field(default_factory=dict)  # base → "domain.Op@since" of its nodes

    def triggered(self, key: str) -> bool:
        return bool(self.evidence.get(key))

    def bases_of(self, key: str) -> list[str]:
        return [e.base for e in self.evidence.get(key, ())]

    def by_base(self) -> dict[str, list[str]]:
        """Base → the keys of the entries it triggers."""
        out: dict[str, list[str]] = {}
        for k, evs in self.evidence.items():
            for e in evs:
                out.setdefault(e.base, []).append(k)
        return out

    def joined(self, other: CoverageMap) -> CoverageMap:
        """This map and ``other`` (the same catalogue, other bases) as one: evidence, bases, errors,
        reasons (this map's first) and base ops of both."""
        ev = {k: [*self.evidence.get(k, ()), *other.evidence.get(k, ())] for k in {*self.evidence, *other.evidence}}
        return dataclasses.replace(
            self,
            evidence=ev,
            bases=[*self.bases, *other.bases],
            errors={**other.errors, **self.errors},
            reasons={**other.reasons, **self.reasons},
            base_ops={**other.base_ops, **self.base_ops},
        )

    def without(self, bases: Iterable[str]) -> CoverageMap:
        """The map with the evidence of ``bases`` removed (what the library covers without them)."""
        gone = set(bases)
        ev = {k: [e for e in v if e.base not in gone] for k, v in self.evidence.items()}
        kept = [b for b in self.bases if b not in gone]
        return dataclasses.replace(self, evidence={k: v for k, v in ev.items() if v}, bases=kept)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


@dataclasses.dataclass
class Rows:
    """What observing some bases gave: base id → tool → triggers (``observed``), base id → tool → why
    none (``errors``), base id → its ops (``base_ops``, as :attr:`CoverageMap.base_ops`)."""

    observed: dict[str, dict[str, dict[str, str]]] = dataclasses.field(default_factory=dict)
    errors: dict[str, dict[str, str]] = dataclasses.field(default_factory=dict)
    base_ops: dict[str, list[str]] = dataclasses.field(default_factory=dict)

    def update(self, other: Rows) -> None:
        self.observed.update(other.observed)
        self.errors.update(other.errors)
        self.base_ops.update(other.base_ops)


def compute(
    bases: Sequence[Any],
    executor,
    tools: Sequence[str] = TOOLS,
    cache=None,
    on_base: Callable[[str], None] | None = None,
) -> CoverageMap:
    """Observe ``bases`` (objects with ``id`` and ``model()``, e.g. :class:`passcheck.hunt.space.Base`).

    Raises:
        WorkerDied: never (a base whose observation kills the worker is recorded in ``errors``).
    """
    entries, unavailable = catalogue(executor, tools, cache)
    tools = [t for t in tools if t in entries]
    return assemble(entries, unavailable, observe_rows(bases, executor, tools, cache, on_base), [b.id for b in bases])


def observe_rows(
    bases: Sequence[Any],
    executor,
    tools: Sequence[str],
    cache=None,
    on_base: Callable[[str], None] | None = None,
) -> Rows:
    """Each base's row under ``tools`` (those with a catalogue here): from ``cache`` when it holds
    every tool's triggers for the base's model, else observed in ``executor`` (:data:`BATCH` bases a
    call); every row observed is appended to ``cache`` per batch. ``on_base`` is called per base
    with its id once its row is known (not for a base that does not build, nor one whose observation
    killed the worker). Raises nothing a base causes (it is recorded in ``errors``)."""
    from passcheck.errors import WorkerDied

    rows = Rows()
    todo: list[tuple[str, str, bytes]] = []
    for b in bases:
        try:
            model = b.model()
        except Exception as exc:  # noqa: BLE001 - a base this onnx cannot build: observed by no tool, and why
            rows.errors[b.id] = {t: f"the base does not build here: {type(exc).__name__}: {exc}" for t in tools}
            continue
        rows.base_ops[b.id] = _ops(model)
        data = model.SerializeToString()
        digest = _digest(data)
        got = {t: cache.get(digest, t) for t in tools} if cache is not None else {}
        if cache is not None and all(v is not None for v in got.values()):
            rows.observed[b.id] = got
            if on_base:
                on_base(b.id)
        else:
            todo.append((b.id, digest, data))
    saved_timeout = executor.timeout
    try:
        for i in range(0, len(todo), BATCH):
            batch = todo[i : i + BATCH]
            results = _observe(executor, tools, batch, WorkerDied)
            for (bid, digest, _), res in zip(batch, results, strict=True):
                if isinstance(res, str):
                    rows.errors[bid] = {t: res for t in tools}
                    continue
                rows.observed[bid] = res
                if cache is not None:
                    for t, trig in res.items():
                        cache.put(digest, t, trig)
                if on_base:
                    on_base(bid)
            if cache is not None:
                cache.save()
    finally:
        executor.timeout = saved_timeout
    return rows


def _observe(executor, tools, batch, died) -> list[Any]:
    """Each base's triggers (tool → dict), or a string saying why the worker gave none."""
    import onnx

    from passcheck.coverage.worker import observe

    executor.timeout = SECONDS_PER_BASE * len(batch)
    first = onnx.ModelProto.FromString(batch[0][2])
    try:
        return executor.call(observe, first, list(tools), [d for _, _, d in batch[1:]])
    except died as exc:
        if len(batch) == 1:
            return [f"the worker died observing it: {str(exc).splitlines()[0]}"]
        return [r for one in batch for r in _observe(executor, tools, [one], died)]


def _ops(model) -> list[str]:
    from passcheck.coverage._graph import opsets, since

    imports = opsets(model)
    out = set()
    for n in model.graph.node:
        domain = "" if n.domain == "ai.onnx" else n.domain
        v = since(n.op_type, domain, imports.get(domain)) if domain in ("", "ai.onnx.ml") else None
        name = f"{domain + '.' if domain else ''}{n.op_type}"
        out.add(f"{name}@{v}" if v else name)
    return sorted(out)


def assemble(entries, unavailable, rows: Rows, base_ids: Sequence[str]) -> CoverageMap:
    """The map of the bases ``base_ids`` (in that order) from their ``rows`` (others in ``rows`` are
    left out) over the catalogue ``entries`` (tool → entries; ``unavailable``: tool → why none)."""
    observed = rows.observed
    errors = {b: dict(rows.errors[b]) for b in base_ids if b in rows.errors}
    base_ops = {b: rows.base_ops[b] for b in base_ids if b in rows.base_ops}
    by_key = {e.key: e for es in entries.values() for e in es}
    evidence: dict[str, list[Evidence]] = {}
    reasons: dict[str, str] = {}
    for bid in base_ids:
        for tool, trig in observed.get(bid, {}).items():
            if "!error" in trig:
                errors.setdefault(bid, {})[tool] = trig["!error"]
            for k, effect in trig.items():
                if k.startswith("!"):
                    if k[1:] in by_key:
                        reasons.setdefault(k[1:], f"{bid}: {effect}")
                elif k in by_key:
                    evidence.setdefault(k, []).append(Evidence(k, bid, effect))
    return CoverageMap(by_key, evidence, list(base_ids), errors, reasons, unavailable, base_ops)
