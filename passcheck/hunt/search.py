"""The hunt loop: pick an item, run it, shrink and save each new finding, record, repeat until the
budget is spent or every item has been tried.

The budget is checked between items and, a time budget, inside the scheduler's choice of an item from a call's
second step on (:class:`.budget.Spent`: the hunt ends there, no item of that step recorded; the first step is whole,
so a time budget runs an item; round 11d, M129); the rewrites' and
neighbours' preconditions are observed before the clock starts (set-up, cached per seed and source); an item's
pass and model runs are bounded by the executor's timeout (at most what is left of a time budget), shrinking by
its own deadline (also within the budget). A finding the rewrite is to blame for (see :mod:`.probe`) is
looked up by its raw signature first: one seen before only adds a hit; a new one is shrunk (:mod:`.shrink`) and saved
as a case module when its shrunk signature is new, then loaded back as ``--cases-from`` would
load it to check that it reproduces. The base's case is also run as it is (its own forms, no
rewrite) under the same pass: a finding of the same pass, oracle and kind there is recorded, so a
signature the library already shows is told apart from a new one. A limit the tool states for an
op only the rewrite brought in is an environment fact, not a finding (:mod:`.limits`).

**Shards** (``shard=(i, n)``): every shard walks the same item sequence (the scheduler's choice at
step ``k`` depends only on the seed, ``k``, the items chosen before and the coverage rows step ``k``
sees, :mod:`.lazymap`), runs the steps
``k ≡ i-1 (mod n)`` and records the others as ``other-shard`` without running them. What the
scheduler learns from an item's run is only whether its base runs (a base that does not is not
picked again); every shard decides that with the same check (:func:`base_runs`, the base on its
feeds under ``ort:disabled``, asked when a base picked before is a candidate again), the
unsharded run too, and likewise whether a neighbour is a valid model (:func:`valid_neighbour`: the
variation gate, asked by a shard that did not run the item, or under ``--env``; else read from the status),
so the shards of an items budget together run exactly the items the unsharded hunt runs.
"""

from __future__ import annotations

import dataclasses
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from passcheck.hunt import baseline, compose, limits, preconditions, variation

#: Seconds one item's pass or model run may take (a time budget lowers it to what is left).
from passcheck.hunt.budget import (
    ITEM_TIMEOUT,  # noqa: E402,F401 - re-exported
    Budget,
    Spent,
)
from passcheck.hunt.guide import Acted
from passcheck.hunt.guide import compute as compute_acted
from passcheck.hunt.probe import Setting, blamed, probe
from passcheck.hunt.scheduler import Scheduler
from passcheck.hunt.shrink import UNCOMMON, Shrinker
from passcheck.hunt.signature import Signature, signature
from passcheck.hunt.space import Base, Item
from passcheck.hunt.store import OTHER_SHARD, Store
from passcheck.mutations import forms as hforms
from passcheck.mutations import withheld
from passcheck.records import timed_out, with_timeout
from passcheck.runtime import isolated_tools

#: Seconds and candidate checks one shrink may take.
SHRINK_SECONDS = 90.0
SHRINK_TESTS = 80


@dataclasses.dataclass
class Ended:
    """Why the loop stopped (``budget``, ``exhausted`` or ``stopped``: ``stop_after`` new signatures
    found), items run by this call (this shard's); ``out_of_range``: per pass that states which bases it takes (an
    opset range, a converter's precondition), the bases met that it does not take, so none of their items was drawn
    (:mod:`.pass_range`; round 9e, M92, round 11h, M142)."""

    why: str
    items: int
    out_of_range: dict[str, int] = dataclasses.field(default_factory=dict)
    #: wall seconds this call spent observing coverage rows between items (:mod:`.lazymap`), inside the budget
    observing: float = 0.0
    #: wall seconds this call spent before its budget started (the neighbours' preconditions, :mod:`.preconditions`)
    setup: float = 0.0


def hunt(
    store: Store,
    bases: Sequence[Base],
    passes: Sequence[str],
    seed: int,
    budget: Budget,
    executor,
    *,
    cases_from: Sequence[str] = (),
    item_timeout: float = ITEM_TIMEOUT,
    on_item: Callable[[Item, dict[str, Any]], None] | None = None,
    cmap=None,
    shard: tuple[int, int] = (1, 1),
    judge=None,
    passes_of: Callable[[str], Sequence[str]] | None = None,
    variations: bool = False,
    vary_kinds: Sequence[str] = (),
    rewrites: Sequence[str] = (),
    steering=None,
    guide: bool = True,
    stop_after: int | None = None,
    known: Mapping[str, Any] | None = None,
    composed: bool = False,
) -> Ended:
    """Run items until ``budget`` is spent; ``store`` is updated after every item and saved as
    :meth:`~passcheck.hunt.store.Store.checkpoint` says, and when the loop ends (however it ends).

    Args:
        store: the state (a resumed one continues: its items are not run again).
        executor: an :class:`~passcheck.passes.isolation.IsolatedExecutor`; its ``timeout`` is set per item.
        budget: a time budget bounds this shard's wall time; an items budget counts steps of the
            item sequence, every shard's (``--budget 40items --shard 1/2`` runs steps 0, 2, …, 38).
        cases_from: the user's case / pass modules (named in reproduce commands).
        on_item: called after each item this shard runs with it and its record (progress).
        cmap: a :class:`~passcheck.coverage.map.CoverageMap` of the bases: items trying (entry,
            spelling) pairs not tried yet come first (see :mod:`.scheduler`); None: triples only.
        shard: ``(i, n)``, 1 ≤ i ≤ n: run the steps ``k`` with ``k % n == i - 1`` (see module docs).
        judge: with ``--env``, a :data:`passcheck.hunt.windows.Judge`: each pair is gated here and
            judged in every environment through it, each neighbour built here and judged there with its
            base (:mod:`.env_vary`); no pass runs here (:mod:`.windows`).
        passes_of: base id → the passes its items draw from (:meth:`.passes.PassPlan.of`, all of
            them in ``passes``); None: every base draws from ``passes``.
        variations: each base's neighbours are items too (:mod:`.variation`, judged by :mod:`.vary_probe`).
        vary_kinds: with ``variations``, only the neighbours whose kind matches one of these globs, and no
            rewrite forms (:class:`.scheduler.Scheduler`); empty: every neighbour and every rewrite form.
        rewrites: only the rewrite forms with a rewrite id matching one of these globs (and the neighbours
            only when ``vary_kinds`` names some); empty: no restriction.
        steering: a :class:`~passcheck.hunt.lazymap.Steering`: the map (and the passes it gives) grows with
            the steps, built inside the budget (:mod:`.lazymap`); ``cmap``, ``passes`` and ``passes_of``
            are then its own at each step, and ``store.scope`` records the passes of the last item's step.
        guide: a base's single-site forms under a pass are those touching where the pass acted on it
            (:mod:`.guide`: from the ``common`` cell of the base's first item under the pass, or one pass
            run when that item is itself a single-site form; every shard and a resumed hunt decide alike).
            Off with ``judge``.
        composed: with ``variations``, rewrites of a neighbour are items too (:mod:`.compose`: the pair
            ``(V(B), R(V(B)))``, the neighbour checked valid first); with ``judge`` built and gated here, the
            pair judged in every environment (:mod:`.env_compose`).
        stop_after: end once the state holds this many new signatures (not in ``known``, a
            :func:`.baseline.load` baseline; checked between items, so a resumed state that has them
            already ends before its first item). The items run are then a prefix of the budget's.
    """
    index, count = shard
    alive: dict[str, bool] = {}  # base id → whether it runs on its feeds (base_runs), asked once per base
    acted: dict[tuple[str, str], Acted] | None = {} if guide and judge is None else None  # (base, pass) → Acted
    recorded = {(rec["base"], rec["pass"]) for rec in store.items if "acted" in rec}

    def acted_of(base_id: str, pass_id: str) -> Acted:
        if (base_id, pass_id) not in acted:
            acted[base_id, pass_id] = compute_acted(scheduler.by_id[base_id].model(), pass_id, executor)
        return acted[base_id, pass_id]

    def runs(base_id: str) -> bool:
        if base_id not in alive:
            alive[base_id] = base_runs(scheduler.by_id[base_id], executor) is not None
        return alive[base_id]

    def scheduler_for(cmap, passes, passes_of) -> Scheduler:
        """A scheduler steered by ``cmap`` that has seen every item of ``store`` (as a resumed hunt's)."""
        made = Scheduler(
            bases,
            passes,
            seed,
            cmap,
            runs=runs,
            passes_of=passes_of,
            variations=variations,
            vary_kinds=vary_kinds,
            rewrites=rewrites,
            acted=acted_of if acted is not None else None,
            compose=composed,
        )
        for rec in store.items:
            if "base_runs" in rec:
                alive[rec["base"]] = rec["base_runs"]
            if acted is not None and "acted" in rec:
                acted.setdefault((rec["base"], rec["pass"]), Acted.from_json(rec["acted"]))
            made.mark(
                Item(rec["base"], rec["form"], rec["pass"]),
                rec["triples"],
                "base_runs" not in rec and rec["status"] == "base-fails",  # a state written before base_runs
                valid=rec.get("valid", True),
                moved=rec.get("moved", False),
                wrote=bool(rec.get("wrote")),
            )
        return made

    with isolated_tools.within(executor) as scope:  # onnx's tools on each neighbour, in the executor's worker (M261)
        seen = None  # with steering: the rows the scheduler was built on
        scheduler = None
        began = time.monotonic()
        if variations:  # set-up, not search: observed once per seed and source, else inside the first steps (M129)
            preconditions.Preconditions.of(bases, seed)
        setup = time.monotonic() - began
        end = time.monotonic() + budget.seconds if budget.seconds is not None else None
        if steering is None:
            scheduler = scheduler_for(cmap, passes, passes_of)
        steps = ran = 0
        observing = 0.0
        try:
            while True:
                spent = end is not None and time.monotonic() >= end
                if (budget.items is not None and steps >= budget.items) or spent:
                    return Ended("budget", ran, _refused(scheduler), observing, setup)
                if stop_after is not None and len(baseline.split(store.signatures, known or {})[0]) >= stop_after:
                    return Ended("stopped", ran, _refused(scheduler), observing, setup)
                step = len(store.items)
                if steering is not None:  # this step's rows observed (paced), then steered by those it sees
                    t_obs = time.monotonic()
                    steering.lazy.observe(steering.lazy.paced(step))
                    observing += time.monotonic() - t_obs
                    if steps and end is not None and time.monotonic() >= end:  # a chunk's rows spent the budget
                        return Ended("budget", ran, _refused(scheduler), observing, setup)
                if steering is not None and steering.visible(step) != seen:
                    seen = steering.visible(step)
                    scheduler = scheduler_for(*steering.at(step))
                    if end is not None and time.monotonic() >= end:  # observing them spent the budget
                        return Ended("budget", ran, _refused(scheduler), observing, setup)
                scheduler.until = end if steps else None  # a call's first step is whole: a time budget runs an item
                try:
                    item = scheduler.next(step)
                except Spent:  # the budget ran out while the step was choosing (M129): no item of it recorded
                    return Ended("budget", ran, _refused(scheduler), observing, setup)
                if item is None:
                    return Ended("exhausted", ran, _refused(scheduler), observing, setup)
                base = scheduler.by_id[item.base]
                held = set(store.signatures)
                if step % count == index - 1:
                    left = None if end is None else end - time.monotonic()
                    executor.timeout = max(5.0, min(item_timeout, left)) if left is not None else item_timeout
                    expected = None
                    if item.base not in alive:  # its runs serve the item's equivalence gate too
                        expected = base_runs(base, executor)
                        alive[item.base] = expected is not None
                    rec = _run(
                        store,
                        base,
                        item,
                        executor,
                        end,
                        cases_from,
                        cut_short=executor.timeout < item_timeout,
                        expected=expected,
                        judge=judge,
                        acted=acted,
                    )
                else:
                    rec = {
                        "base": item.base,
                        "form": item.form,
                        "pass": item.pass_id,
                        "status": OTHER_SHARD,
                        "signatures": [],
                    }
                if item.base in alive:
                    rec["base_runs"] = alive[item.base]
                if acted is not None and (key := (item.base, item.pass_id)) in acted and key not in recorded:
                    rec["acted"] = acted[key].to_json()  # a resumed hunt reads it back rather than running the pass
                    recorded.add(key)
                rec["triples"] = sorted(scheduler.triples(item))
                if not valid_neighbour(base, item, rec, executor, gated=judge is None):
                    rec["valid"] = False
                if scope is not None and (died := scope.drain()):  # the step's tool deaths: a candidate dropped, said
                    rec["tool_deaths"] = died
                if scope is not None and (skipped := scope.drain_skipped()):  # calls not made: no restart (M310)
                    rec["tool_skips"] = skipped
                if count == 1 and any(k not in held for k in rec["signatures"]):  # a shard cannot tell: unsharded only
                    rec["moved"] = True  # this item moved the pass: a new signature (round 9e, M90)
                if count != 1:  # likewise: the other shards do not see what the pass wrote on a neighbour (round 10a)
                    rec.pop("wrote", None)
                store.items.append(rec)
                if steering is not None:  # the passes this item was drawn from: what a resumed hunt checks
                    store.scope.update(steering.scope(step))
                scheduler.mark(
                    item,
                    rec["triples"],
                    valid=rec.get("valid", True),
                    moved=rec.get("moved", False),
                    wrote=bool(rec.get("wrote")),
                )
                store.checkpoint()
                steps += 1
                if rec["status"] != OTHER_SHARD:
                    ran += 1
                    if on_item:
                        on_item(item, rec)

        finally:  # a run cut short (Ctrl-C, an error) keeps every item it finished
            store.save()


def _refused(scheduler) -> dict[str, int]:
    """Per pass stating which bases it takes, how many bases ``scheduler`` met that it does not take (none before a
    first)."""
    return {p: len(ids) for p, ids in sorted(getattr(scheduler, "out_of_range", {}).items())}


def valid_neighbour(base: Base, item: Item, rec: dict, executor, gated: bool = True) -> bool:
    """Whether the neighbour of variation ``item`` is a valid model by the gate every variation item passes
    first (:func:`.vary_probe.invalid` on its setting, here): what the scheduler reads, so every shard decides it
    alike, the one that ran the item and those that did not (True for any other form, and for a neighbour that
    does not build: nothing to decide). ``rec``: the item's record; ``gated``: the item, when
    run here, went through that gate (no ``--env``), so only an ``invalid-variation`` status asks it again (that
    status also follows from the neighbour's own cells, which the gate does not read)."""
    from passcheck.hunt import vary_probe

    if not variation.is_variation(item.form) or compose.is_composed(item.form):
        return True  # a rewrite of a neighbour: a candidate only once its neighbour passed (Scheduler.invalid)
    if gated and rec["status"] not in (OTHER_SHARD, vary_probe.INVALID):
        return True
    if item.form not in base.valid:
        base.valid[item.form] = _gate(base, item.form, executor)
    return base.valid[item.form]


def _gate(base: Base, vform: str, executor) -> bool:
    from passcheck.hunt import vary_probe

    try:
        model = base.model()
        built = variation.build(model, vform)
    except Exception:  # noqa: BLE001 - a base or neighbour this onnx cannot build: nothing to decide
        return True
    if built is None:
        return True
    case = base.case
    setting = vary_probe.setting_for(Setting(case.id, case.bindings, case.feeds, case.rtol, case.atol), vform, built[0])
    try:
        return vary_probe.invalid(setting, model, built[0], executor, vform) is None
    except Exception:  # noqa: BLE001 - a gate that cannot read the neighbour leaves it as it was
        return True


def base_runs(base: Base, executor) -> list | None:
    """``base``'s runs under ``ort:disabled`` on the feeds its items are judged on, or None when it
    does not run on them (the check behind an item's ``base-fails``:
    :func:`~passcheck.mutations.equivalence.original_runs`), in ``executor``'s worker. A base that
    does not build or cannot be fed does not run."""
    from passcheck.mutations.equivalence import original_runs

    try:
        model = base.model()
        case = base.case
        feeds = Setting(case.id, case.bindings, case.feeds, case.rtol, case.atol).feed_list(model)
        return original_runs(model, feeds, getattr(executor, "run_model", None))
    except Exception:  # noqa: BLE001 - PasscheckError (does not run, no feeds) or a builder's own error
        return None


def _run(
    store: Store,
    base: Base,
    item: Item,
    executor,
    end: float | None,
    cases_from: Sequence[str],
    cut_short: bool = False,
    expected: list | None = None,
    judge=None,
    acted: dict | None = None,
) -> dict[str, Any]:
    """One item. ``cut_short``: the executor's time limit was lowered to what is left of the budget,
    so a pass or run that times out was stopped by the hunt, not by the tool: the item is
    ``unfinished``, never a finding. ``acted``: (base, pass) → :class:`.guide.Acted`, filled (and the
    record's ``acted``) from the item's ``common`` cell when not known yet."""
    rec: dict[str, Any] = {
        "base": item.base,
        "form": item.form,
        "pass": item.pass_id,
        "status": "not-applicable",
        "signatures": [],
    }
    t0 = time.monotonic()
    if compose.is_composed(item.form):
        if judge is not None:  # --env: built and gated here, judged in each environment (see .env_compose)
            from passcheck.hunt import env_compose

            rec = env_compose.run(store, rec, base, item, judge, executor)
        else:
            _run_composed(store, rec, base, item, executor, end, cases_from, cut_short)
        rec["seconds"] = round(time.monotonic() - t0, 3)
        return rec
    if variation.is_variation(item.form):
        if judge is not None:  # --env: judged in each environment (see .env_vary)
            from passcheck.hunt import env_vary

            env_vary.run(store, rec, base, item, judge, executor)
        else:
            _run_variation(store, rec, base, item, executor, end, cases_from, cut_short)
        rec["seconds"] = round(time.monotonic() - t0, 3)
        return rec
    try:
        model = base.model()
        paired = withheld.pair(model, item.form)  # a withheld form: both sides without the output dims
        model, built = (model, None) if paired is None else (paired[0], paired[1:])
    except Exception as exc:  # noqa: BLE001 - a rewrite that cannot read this model: nothing to try
        built, rec["reason"] = None, f"{type(exc).__name__}: {exc}"
    if built is not None and judge is not None:  # --env: judged in each environment (see .windows)
        from passcheck.hunt.windows import run_item

        rec = run_item(store, base, item, model, built[0], built[1], judge, executor, expected)
        rec["seconds"] = round(time.monotonic() - t0, 3)
        return rec
    if built is not None:
        mutant, labels = built
        if _limit_met(store, rec, item, model, mutant):
            rec["seconds"] = round(time.monotonic() - t0, 3)
            return rec
        case = base.case
        setting = Setting(case.id, case.bindings, case.feeds, case.rtol, case.atol)
        outcome = probe(setting, model, item.form, mutant, item.pass_id, executor, expected=expected)
        if acted is not None and outcome.acted is not None and (item.base, item.pass_id) not in acted:
            acted[item.base, item.pass_id] = outcome.acted
        if _record(rec, outcome, cut_short):
            rec["seconds"] = round(time.monotonic() - t0, 3)
            return rec
        for f in _facts_split(store, rec, item, outcome, model, mutant):
            raw = signature(f, hforms.kind(item.form), [model, mutant], labels)
            key = _found(store, raw, f, base, model, item, executor, end, cases_from)
            if key and key not in rec["signatures"]:
                rec["signatures"].append(key)
    rec["seconds"] = round(time.monotonic() - t0, 3)
    return rec


def _limit_met(store: Store, rec: dict, item: Item, model, mutant) -> bool:
    """True (``rec`` made ``unavailable``) when the pair meets a limit of the item's pass recorded earlier
    (:func:`.limits.known`): not run again."""
    if fact := limits.known(store.environment, item.pass_id, model, mutant):
        fact["skipped"] = fact.get("skipped", 0) + 1
        rec["status"] = "unavailable"
        rec["reason"] = f"a limit {item.pass_id} states (recorded earlier): {fact['reason']}"
        return True
    return False


def _facts_split(store: Store, rec: dict, item: Item, outcome, model, mutant) -> list:
    """``outcome``'s findings that are no limit the pass states (:func:`.limits.split`); the limits recorded in
    the store's environment facts, ``rec`` made ``unavailable`` when nothing else is left."""
    findings, facts = limits.split(outcome.findings, item.pass_id, model, mutant)
    if facts:
        limits.record(store.environment, item.pass_id, facts, model, mutant, {"base": item.base, "form": item.form})
        if not findings:
            rec["status"], rec["reason"] = "unavailable", "; ".join(sorted({w for w, _ in facts}))
    return findings


def _record(rec: dict, outcome, cut_short: bool) -> bool:
    """``outcome``'s status, reason and unavailable cells into ``rec``; True when the item is ``unfinished``
    (``cut_short`` and a finding that timed out: the hunt stopped it, not the tool)."""
    rec["status"] = outcome.status
    if outcome.reason:
        rec["reason"] = outcome.reason
    if outcome.unavailable:
        rec["unavailable"] = outcome.unavailable
    if cut_short and any(timed_out(f) for f in outcome.findings):
        rec["status"] = "unfinished"
        rec["reason"] = "the hunt's budget ran out while this item ran (a time limit it set)"
        return True
    return False


def _run_variation(store: Store, rec: dict, base: Base, item: Item, executor, end, cases_from, cut_short: bool) -> None:
    """One variation item (see :mod:`.vary_probe`): ``rec`` filled in; each finding the variation is to
    blame for counted under its signature (rewrite: the variation kind), shrunk and saved when new."""
    from passcheck.engine import Subject, evaluate
    from passcheck.hunt import vary_probe

    try:
        model = base.model()
    except Exception as exc:  # noqa: BLE001 - a base this onnx cannot build: nothing to vary
        rec["reason"] = f"{type(exc).__name__}: {exc}"
        return
    case = base.case
    setting = Setting(case.id, case.bindings, case.feeds, case.rtol, case.atol)

    def base_cells() -> list:
        if item.pass_id not in base.cells:
            subject = Subject(case.id, {"common": model}, case.bindings, case.feeds, rtol=case.rtol, atol=case.atol)
            base.cells[item.pass_id] = evaluate(subject, [item.pass_id], executor=executor)
        return base.cells[item.pass_id]

    outcome = vary_probe.judge(setting, model, item.form, item.pass_id, executor, base_cells)
    if outcome.wrote:  # the pass wrote an op on the neighbour only: a first link of chains (.chain)
        rec["wrote"] = outcome.wrote
    if outcome.pair is not None:  # an equivalent neighbour: also judged as a pair with its base (.vary_equiv)
        rec["pair"] = outcome.pair
    if _record(rec, outcome, cut_short) or not outcome.findings:
        return
    neighbour, labels = variation.build(model, item.form, labelled=True)  # the labels name its nodes
    for f in outcome.findings:
        raw = signature(f, variation.kind(item.form), [model, neighbour], labels)
        key = _found(store, raw, f, base, model, item, executor, end, cases_from)
        if key and key not in rec["signatures"]:
            rec["signatures"].append(key)


def _run_composed(store: Store, rec: dict, base: Base, item: Item, executor, end, cases_from, cut_short: bool) -> None:
    """One rewrite of a neighbour (:mod:`.compose`): the neighbour ``V`` built and checked valid as a variation
    item's is (:func:`.vary_probe.invalid`, on its own setting), then the pair ``(V, R(V))`` probed as a rewrite
    item's pair; each finding the rewrite is to blame for counted under the composed kind, shrunk (``V`` as the
    base, ``R`` as the form) and saved as a pair when new."""
    rform = compose.split(item.form)[1]
    if (ready := compose.valid_pair(rec, base, item.form, executor)) is None:
        return
    neighbour, mutant, labels, setting = ready
    if _limit_met(store, rec, item, neighbour, mutant):
        return
    outcome = probe(setting, neighbour, rform, mutant, item.pass_id, executor)
    if _record(rec, outcome, cut_short):
        return
    for f in _facts_split(store, rec, item, outcome, neighbour, mutant):
        raw = signature(f, compose.kind(item.form), [neighbour, mutant], labels)
        key = _found(store, raw, f, base, neighbour, item, executor, end, cases_from, form=rform)
        if key and key not in rec["signatures"]:
            rec["signatures"].append(key)


def _found(
    store: Store, raw: Signature, finding, base: Base, model, item: Item, executor, end, cases_from, form=None
) -> str | None:
    """The key of the signature ``finding`` counts for (shrinking and saving it when new), with its hit counted.
    ``form``: the rewrite form that made the pair from ``model`` (a composed item's rewrite part; else the item's)."""
    if raw.key in store.coarse:
        key = store.coarse[raw.key]
    else:
        key = _shrink_and_save(store, raw, finding, base, model, item, executor, end, cases_from, form)
        store.coarse[raw.key] = key
    if key in store.signatures:
        store.signatures[key]["hits"] += 1
    return key


def _shrink_and_save(
    store: Store, raw: Signature, finding, base: Base, model, item: Item, executor, end, cases_from, form=None
) -> str:
    from passcheck.reduce.case_module import case_module

    case_id = raw.case_id  # seeds the shrunk pair's feeds: the saved case is judged on the same ones
    setting = Setting(case_id, rtol=base.case.rtol, atol=base.case.atol)
    deadline = time.monotonic() + SHRINK_SECONDS if end is None else min(end, time.monotonic() + SHRINK_SECONDS)
    if variation.is_variation(item.form):
        return _shrink_and_save_variation(
            store, raw, finding, base, model, item, executor, cases_from, setting, deadline
        )
    shrunk = Shrinker(setting, finding.pass_id, finding.oracle, finding.kind, executor, deadline, SHRINK_TESTS).shrink(
        model, form or item.form
    )
    found_on = {"base": item.base, "form": item.form, "pass": item.pass_id, "message": finding.message}
    if shrunk is None:  # shows only with the case's own feeds: kept unshrunk, under its raw signature
        return _unshrunk(store, raw, found_on)
    kind = raw.rewrite if compose.is_composed(item.form) else shrunk.kind or hforms.kind(shrunk.form)
    sig = signature(shrunk.finding, kind, [shrunk.common, shrunk.uncommon], shrunk.labels)
    if key := store.key_of(sig):
        return key
    store.cases_dir.mkdir(parents=True, exist_ok=True)
    path = store.cases_dir / f"hunt_{case_id.rsplit('-', 1)[-1]}.py"
    path.write_text(
        case_module(
            shrunk.finding,
            shrunk.common,
            shrunk.uncommon,
            case_id=case_id,
            origin=_origin(item),
            rtol=base.case.rtol,
            atol=base.case.atol,
        ),
        encoding="utf-8",
    )
    repro = _reproduce(path, case_id, finding.pass_id, finding.oracle, finding.kind, executor, cases_from)
    library = _in_case(base.case, finding.pass_id, finding.oracle, finding.kind, executor)
    store.signatures[sig.key] = _record_of(case_id, sig, found_on, path, shrunk, shrunk.uncommon, repro, library)
    return sig.key


def _origin(item: Item) -> str:
    """The saved module's origin line: a composed item's says its neighbour (the pair's common side)."""
    if compose.is_composed(item.form):
        v, r = compose.split(item.form)
        return f"passcheck hunt (the rewrite {r} of the neighbour {v} of {item.base})"
    return "passcheck hunt"


def _record_of(
    case_id: str, sig, found_on: dict, path: Path, shrunk, changed, repro: tuple[str, bool], library
) -> dict:
    """A new signature's record in the state: ``shrunk`` (a pair, or a variation's base) and its ``changed`` model."""
    return {
        "signature": sig.to_json(),
        "hits": 0,
        "found_on": found_on,
        "case": case_id,
        "case_module": str(path),
        "form": shrunk.form,
        "nodes": [len(shrunk.common.graph.node), len(changed.graph.node)],
        "shrink_finished": shrunk.finished,
        "shrink_tests": shrunk.tests,
        "message": shrunk.finding.message,
        "repro": repro[0],
        "reproduces": repro[1],
        "library": library,
    }


def _unshrunk(store: Store, raw: Signature, found_on: dict) -> str:
    store.key_of(raw)  # a record an older passcheck spelled otherwise takes today's key
    store.signatures.setdefault(
        raw.key,
        {
            "signature": raw.to_json(),
            "hits": 0,
            "found_on": found_on,
            "case": None,
            "note": "not shrunk: the pair shows it only on its case's own feeds",
        },
    )
    return raw.key


def _shrink_and_save_variation(
    store: Store, raw: Signature, finding, base: Base, model, item: Item, executor, cases_from, setting, deadline
) -> str:
    """:func:`_shrink_and_save` for a variation finding: the fewest base nodes whose neighbour still shows
    it (:class:`~passcheck.hunt.vary_probe.Shrinker`), saved as a one-model case module that builds the
    neighbour."""
    from passcheck.hunt import vary_equiv, vary_probe
    from passcheck.reduce.case_module import case_module

    case_id = setting.subject_id
    shrunk = vary_probe.Shrinker(
        setting, finding.pass_id, finding.oracle, finding.kind, executor, deadline, SHRINK_TESTS
    ).shrink(model, item.form)
    found_on = {"base": item.base, "form": item.form, "pass": item.pass_id, "message": finding.message}
    if shrunk is None:
        return _unshrunk(store, raw, found_on)
    sig = signature(
        shrunk.finding, variation.kind(shrunk.form), [shrunk.common, shrunk.neighbour], variation.labels(shrunk.form)
    )
    if key := store.key_of(sig):
        return key
    store.cases_dir.mkdir(parents=True, exist_ok=True)
    path = store.cases_dir / f"hunt_{case_id.rsplit('-', 1)[-1]}.py"
    origin = f"passcheck hunt (the neighbour {shrunk.form} of a {len(shrunk.common.graph.node)}-node base)"
    paired = vary_equiv.is_pair_finding(shrunk.finding)  # a pair's finding: the base is its case's common form
    path.write_text(
        case_module(
            shrunk.finding,
            shrunk.common if paired else None,
            shrunk.neighbour,
            case_id=case_id,
            origin=origin,
            rtol=base.case.rtol,
            atol=base.case.atol,
            **vary_probe.saved(setting, shrunk.common, shrunk.form),
        ),
        encoding="utf-8",
    )
    found = None if paired else vary_probe.reproduces  # a pair's: blamed on its uncommon form, as a rewrite's
    repro = _reproduce(path, case_id, finding.pass_id, finding.oracle, finding.kind, executor, cases_from, found=found)
    library = _in_case(base.case, finding.pass_id, finding.oracle, finding.kind, executor)
    record = _record_of(case_id, sig, found_on, path, shrunk, shrunk.neighbour, repro, library)
    store.signatures[sig.key] = {**record, "variation": shrunk.form, "judged": "pair" if paired else "alone"}
    return sig.key


def _reproduce(
    path: Path,
    case_id: str,
    pass_id: str,
    oracle: str,
    kind: str,
    executor,
    cases_from: Sequence[str],
    found: Callable[..., bool] | None = None,
) -> tuple[str, bool]:
    """Load the saved module as ``--cases-from`` does and run its case: (reproduce command, whether
    the finding shows). The command carries ``--timeout`` (the executor's) when the finding is about
    that limit."""
    from passcheck._versions import tool_version
    from passcheck.cases import registry
    from passcheck.cases._registry import load_file
    from passcheck.engine import Subject, evaluate

    load_file(path)  # a user module: the command's scope takes its case back (passcheck/cases/scope.py)
    case = registry().get(case_id)
    subject = Subject.from_case(case, tool_version("onnx"), [str(Path(p).resolve()) for p in [*cases_from, path]])
    repro = subject.repro.format(**{"pass": shlex.quote(pass_id)})
    try:
        cells = evaluate(subject, [pass_id], executor=executor)
    except Exception:  # noqa: BLE001 - the saved case does not run: it does not reproduce
        return repro, False
    same = [f for c in cells for f in c.findings if (f.pass_id, f.oracle, f.kind) == (pass_id, oracle, kind)]
    if any(timed_out(f) for f in same):
        repro = with_timeout(repro, getattr(executor, "timeout", None))
    if found is not None:  # a one-model case (a neighbour): the finding on its pass cells
        return repro, found(cells, pass_id, oracle, kind)
    return repro, any((f.pass_id, f.oracle, f.kind) == (pass_id, oracle, kind) for f in blamed(cells, UNCOMMON))


def _in_case(case, pass_id: str, oracle: str, kind: str, executor) -> list[str]:
    """Ids of the findings of the same pass, oracle and kind that the base's case shows on its own
    forms, without any rewrite (the library already has those; at most 3)."""
    from passcheck._versions import tool_version
    from passcheck.engine import Subject, evaluate

    try:
        cells = evaluate(Subject.from_case(case, tool_version("onnx")), [pass_id], executor=executor)
    except Exception:  # noqa: BLE001 - a case that does not run here shows nothing
        return []
    return sorted(
        {f.id for c in cells for f in c.findings if (f.pass_id, f.oracle, f.kind) == (pass_id, oracle, kind)}
    )[:3]
