"""``passcheck hunt``: search base models × rewrites × passes within a budget for findings, shrink
each distinct one to a minimal pair saved as a case module (see :mod:`passcheck.hunt`)."""

from __future__ import annotations

import argparse
import sys

from passcheck.cli._common import add_pass_args, add_progress_arg, positive


def _budget(text: str):
    from passcheck.hunt.budget import Budget

    try:
        return Budget.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_parser(sub) -> None:
    from passcheck.hunt.budget import ITEM_TIMEOUT

    p = sub.add_parser(
        "hunt",
        help="search generated and hand-written cases × rewrites × passes for findings, within a budget",
        description="Try base models (forms of the hand-written and generated cases) rewritten at depth 1-2, all at "
        "once or at one site, and their neighbours (one change within the operator schemas, judged alone against "
        "the base, and an equivalent one also as a pair with it), under each pass; the budget's time is shared "
        "between the passes (each pass's expected seconds per item; the defaults keep at least half), and on a "
        "pass the search is guided toward untried (op type, rewrite or variation, pass, site kind) units. "
        "Without --pass each base (and its neighbours) draws from its relevant passes; the summary lists the "
        "passes searched with their items and signatures, and a pass a case wants that cannot run here. "
        "Each distinct finding signature (pass, oracle, kind, op types, rewrite) is shrunk to a minimal "
        "pair and saved as a case module in OUT/cases (load it with --cases-from). State is kept in "
        "OUT/hunt-state.json (after a new signature, every few seconds and at the end); --resume continues it. "
        "Exit 1 when a signature was found, or when no item ran its pass (NOTHING CHECKED: the budget ran out "
        "before the first item, or the gate refused every pair).",
    )
    p.add_argument(
        "--budget",
        type=_budget,
        default=_budget("10m"),
        metavar="TIME|Nitems",
        help="how long to search: 90s, 10m, 1h, or a count of items such as 40items (default: 10m); "
        "checked between items and after each chunk of coverage rows observed; the set-up before the first item "
        "(bases, the generated set, --env environments) is not counted (the summary line gives both times)",
    )
    p.add_argument(
        "--stop-after",
        type=positive(int),
        metavar="N",
        help="end the hunt once N new signatures are found (not in --baseline; a resumed state's count), "
        "checked between items, within the --budget; the items run are then the first ones of the budget's",
    )
    add_pass_args(
        p,
        "each base's relevant passes: the defaults, its case's declared passes and every pass installed here "
        "that runs a catalogue entry the base triggers (onnxscript:rewrite, onnx:convert-opset-up, onnxsim:simplify …; "
        "the defaults and declared passes only with --no-coverage)",
    )
    p.add_argument(
        "--case",
        action="append",
        default=[],
        metavar="GLOB",
        help="base cases: id or tag glob (repeatable); default: the hand-written library, "
        "--cases-from modules and the generated set",
    )
    p.add_argument(
        "--cases-from",
        action="append",
        default=[],
        metavar="PATH",
        help="also load case (and pass) modules from a file or folder",
    )
    p.add_argument("--no-generated", action="store_true", help="leave the generated set out of the default bases")
    p.add_argument(
        "--lift",
        action="store_true",
        help="also draw each case lifted to the newest opset onnx and onnxruntime share, where the lift computes the "
        "same and opens a neighbour or rewrite the old opset has no site for (passcheck.hunt.lift; cached)",
    )
    p.add_argument(
        "--no-coverage",
        action="store_true",
        help="do not steer by the coverage map (the catalogue entries the bases trigger, see 'passcheck coverage')",
    )
    p.add_argument(
        "--map-first",
        action="store_true",
        help="observe every base's coverage row before the first item (inside the budget) and steer every step "
        "by the whole map; by default rows are observed 12 before the first item and 12 more every 3 steps (in an "
        "order drawn from the seed) and a step steers by those observed, rounded down to 12 times a power of two: "
        "the first item runs at once, and the items are the same whatever the cache holds (another sequence "
        "than --map-first's)",
    )
    p.add_argument(
        "--no-guidance",
        action="store_true",
        help="keep each base's sampled single sites under every pass; by default, once an item of a base and "
        "pass has run, the sites touching where the pass acted on the base (nodes it removed or replaced, the "
        "values between them, the values whose type it changed) are tried first (docs/hunt.md)",
    )
    p.add_argument(
        "--no-variation",
        action="store_true",
        help="do not try the bases' neighbours (one constant value, constant shape, attribute or float elem_type "
        "changed within the operator schemas, or the base under other dim_param bindings or float feeds, each "
        "judged on its own against its base, an equivalent spelling also as a pair with it; with --env in each "
        "environment, against the base's cells there)",
    )
    p.add_argument(
        "--no-compose",
        action="store_true",
        help="do not try rewrites of a neighbour (a rewrite at a site the neighbour opened or changed, judged as a "
        "pair with the neighbour: item 'vary:<kind>@<site>><rewrite>@<site>'; with --env built here, the pair "
        "judged in each environment); always off with --no-variation (docs/hunt.md)",
    )
    p.add_argument(
        "--vary-kind",
        action="append",
        default=[],
        metavar="GLOB",
        help="try only the neighbours whose variation kind matches (repeatable; fnmatch on the kind without "
        "'vary:', e.g. 'int-*' or 'value-zero'), and no rewrite forms (docs/hunt.md); not with --no-variation",
    )
    p.add_argument(
        "--rewrite",
        action="append",
        default=[],
        metavar="GLOB",
        help="try only the rewrite forms with a rewrite id matching (repeatable; fnmatch, e.g. 'einsum-*'; "
        "'ID:NAME' prefers the sites whose label ends in :NAME, e.g. 'neutral-op:split-third'), "
        "and no neighbours unless --vary-kind names some (docs/hunt.md)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="N",
        help="seed of the search order (default: %(default)s); same seed, same items",
    )
    p.add_argument(
        "--out",
        default="passcheck-hunt",
        metavar="DIR",
        help="folder for the state and the saved case modules (default: %(default)s)",
    )
    p.add_argument(
        "--resume", action="store_true", help="continue the hunt whose state is in --out (same seed, passes and cases)"
    )
    p.add_argument(
        "--shard",
        default="1/1",
        metavar="I/N",
        help="run the I-th of N disjoint parts of the item sequence (every step k with k %% N == I-1); "
        "with an items budget the N shards together run the items of the unsharded hunt; "
        "join them with 'passcheck merge'",
    )
    p.add_argument(
        "--baseline",
        metavar="FILE",
        help="known signatures (JSON written by --write-baseline): report only new ones, count the known; "
        "exit 1 only on a new signature",
    )
    p.add_argument(
        "--write-baseline",
        metavar="FILE",
        help="write every signature of the hunt (and the --baseline entries) as a signature baseline",
    )
    p.add_argument(
        "--timeout",
        type=positive(float),
        default=ITEM_TIMEOUT,
        metavar="SECONDS",
        help="wall time one pass or model run of an item may take (default: %(default)s; "
        "never more than the time left)",
    )
    p.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="ID|PINS.txt",
        help="judge every item in this pinned environment (a matrix environment id or a pins file; repeatable): "
        "the pair is built and gated here, a neighbour built here, the pass and oracles run there on the same "
        "model bytes (a neighbour's validity gate and its base's cells too: one an environment cannot run is "
        "unavailable there, not a finding); each signature gets its version window (where it is present, where "
        "absent) and a 'passcheck bisect' command",
    )
    p.add_argument("--envs-dir", metavar="DIR", help="folder of pins files (default: ci/envs of the source tree)")
    p.add_argument("--source", metavar="DIR", help="passcheck source tree installed into the --env environments")
    p.add_argument(
        "--cache-dir", metavar="DIR", help="environment cache (default: $PASSCHECK_CACHE or ~/.cache/passcheck)"
    )
    add_progress_arg(p, quiet=True)
    p.set_defaults(handler=handle)


def handle(args) -> int:
    from passcheck.hunt.store import release

    try:
        return _handle(args)
    finally:
        release(args.out)  # the --out lock Store.open took


def _handle(args) -> int:
    import time
    from pathlib import Path

    began = time.monotonic()  # set-up (bases, generated set, environments, the map's first rows) is before the budget

    from passcheck.api import require_available
    from passcheck.cli._common import load_cases_from, progress
    from passcheck.engine import INPUT
    from passcheck.hunt import baseline
    from passcheck.hunt import passes as hpasses
    from passcheck.hunt.search import hunt
    from passcheck.hunt.space import bases
    from passcheck.hunt.store import Store
    from passcheck.matrix.plan import parse_shard
    from passcheck.passes.isolation import executor_for

    shard = parse_shard(args.shard)
    known = baseline.load(args.baseline) if args.baseline else None  # a bad file is a usage error before any work
    load_cases_from(args.cases_from)  # they may register passes
    named = list(dict.fromkeys(args.passes))
    if named and not args.env:  # with --env the passes run there: one unavailable there is a recorded cell
        require_available([p for p in named if p != INPUT])
    cases_from = [str(Path(p).resolve()) for p in args.cases_from]
    scope = {
        "seed": args.seed,
        "passes": named,
        "cases": list(args.case),
        "cases_from": cases_from,
        "generated": not args.no_generated,
    }
    if args.lift:  # absent from the scope of a hunt without it: another base list
        scope["lift"] = 1
    variations = not args.no_variation
    if variations:  # absent from the scope of a hunt without them (and of one written before they existed)
        scope["variation"] = 1
    composed = variations and not args.no_compose
    if composed:  # likewise: another item sequence, which a resumed hunt must share
        scope["compose"] = 1
    if args.vary_kind:
        if not variations:
            from passcheck.errors import PasscheckError

            raise PasscheckError("--vary-kind chooses neighbours: it cannot go with --no-variation")
        _check_vary_kinds(args.vary_kind)
        scope["vary_kinds"] = sorted(set(args.vary_kind))
    if args.rewrite:
        _check_rewrites(args.rewrite)
        scope["rewrites"] = sorted(set(args.rewrite))
    guide = not args.no_guidance and not args.env  # with --env no pass runs here: nothing to guide by
    if guide:  # absent from the scope of a hunt without it (and of one written before it existed)
        scope["guided"] = 1
    if shard != (1, 1):
        scope["shard"] = f"{shard[0]}/{shard[1]}"
    if args.map_first and not args.no_coverage:  # another item sequence: a resumed hunt must share it
        scope["map"] = "first"
    judge = _judge(args, cases_from) if args.env else None
    if judge is not None:
        scope["envs"] = [s.id for s in judge.envs]
        scope["env_pins"] = {s.id: list(s.pins) for s in judge.envs}  # merge rebuilds each window's bisect
    found = bases(args.case, generated=not args.no_generated)
    if not found:
        from passcheck.errors import PasscheckError

        raise PasscheckError("no base case runs here (every selected case is skipped); choose others with --case")
    # without --pass the passes are known once the bases' coverage map is read: checked on resume then
    store = Store.open(args.out, scope, args.resume, later=() if named else ("passes", "pass_sets"))
    if args.resume and not store.resumed:  # one command line for a first run and its continuations: said, not refused
        print(f"passcheck hunt: --resume: no hunt state in {args.out}; starting a new hunt there", file=sys.stderr)
    store.save()  # an --out that cannot be written fails now, before any work
    before = list(store.items)
    with executor_for(None, timeout=args.timeout, preload=cases_from) as ex:
        if args.lift:
            found = _lifted(found, ex)
        # the coverage map is built inside the budget, rows as the steps reach them (passcheck.hunt.lazymap)
        try:
            steering, plan = None if args.no_coverage else _steering(found, ex, args, named), None
            if steering is None:
                plan = hpasses.explicit(named, found) if named else hpasses.relevant(found, None)
                store.settle({"passes": plan.passes, "pass_sets": plan.digest()})
            elif store.items:  # a resumed state: the passes its last item drew from, checked
                store.settle(steering.scope(len(store.items) - 1))
        except BaseException:  # a resumed state of other pass sets, an interrupt: the environments' workers too
            if judge is not None:
                judge.close(grace=0.0)
            raise
        for line in plan.unavailable_lines() if plan is not None else ():
            print(f"passcheck hunt: {line}", file=sys.stderr)
        planned = args.budget.items
        if planned is not None:  # this shard's steps among the next ``planned`` of the sequence
            start = len(store.items)
            planned = sum(1 for k in range(start, start + planned) if k % shard[1] == shard[0] - 1)
        with progress(args, planned, "items") as prog:

            def on_item(item, rec):
                where = f"{len(store.signatures)} signatures" + (
                    f"; map: {steering.lazy.ready}/{steering.lazy.total} bases" if steering is not None else ""
                )
                prog.advance(where, f"{item.pass_id} {item.form} on {item.base}")

            if steering is not None:  # a row observed between items: named on the heartbeat line
                steering.lazy.on_row = lambda bid: prog.now(
                    f"map: {steering.lazy.ready}/{steering.lazy.total} bases (observing {bid})"
                )

            t0 = time.monotonic()
            try:
                ended = hunt(
                    store,
                    found,
                    [] if plan is None else plan.passes,
                    args.seed,
                    args.budget,
                    ex,
                    cases_from=cases_from,
                    on_item=on_item,
                    cmap=None,
                    shard=shard,
                    judge=judge,
                    passes_of=None if plan is None else hpasses.passes_of(plan),
                    variations=variations,
                    vary_kinds=tuple(sorted(set(args.vary_kind))),
                    rewrites=tuple(sorted(set(args.rewrite))),
                    steering=steering,
                    guide=guide,
                    stop_after=args.stop_after,
                    known=known,
                    composed=composed,
                )
            except BaseException:  # an interrupt: the environments' workers are killed, not waited for
                if judge is not None:
                    judge.close(grace=0.0)
                raise
            finally:
                prog.close()
                if judge is not None:
                    judge.close()
                    _bisect_commands(store)
                    if judge.fallbacks:
                        print(
                            f"passcheck hunt: {len(judge.fallbacks)} item(s) judged again by a fresh worker "
                            f"(the environment's long-lived worker failed; first: {judge.fallbacks[0]})",
                            file=sys.stderr,
                        )
                store.save()
    new = summarize(store, known, f"{len(found)} bases", ended, time.monotonic() - t0, args, setup=t0 - began)
    from passcheck.hunt.summary import nothing_checked_line, pass_lines

    unchecked = None if new else nothing_checked_line(store.items[len(before) :])
    if unchecked:
        print(unchecked, file=sys.stdout)

    last = max(0, len(store.items) - 1)
    if steering is not None:
        plan = steering.plan(last)
        for line in plan.unavailable_lines():
            print(f"passcheck hunt: {line}", file=sys.stderr)
    print("\n".join(pass_lines(plan.passes, store.items, store.signatures, plan.cases_of)), file=sys.stderr)
    for p, n in (getattr(ended, "out_of_range", None) or {}).items():
        print(
            f"passcheck hunt: {p}: {n} bases met outside what the pass states it takes (its opset range or "
            "a converter's precondition), none drawn",
            file=sys.stderr,
        )
    if steering is not None:
        from passcheck.hunt.summary import coverage_lines

        lazy = steering.lazy
        print(
            f"passcheck hunt: map: {lazy.visible(last)}/{lazy.total} bases steered the last step "
            f"({lazy.ready} observed or read from the cache)",
            file=sys.stderr,
        )
        print("\n".join(coverage_lines(lazy.at(last), before, store.items)), file=sys.stderr)
    return 1 if new or unchecked else 0


def _judge(args, cases_from):
    """The :class:`~passcheck.matrix.hunt.EnvJudge` of ``--env``, its environments created now
    (before the budget starts)."""
    import time
    from pathlib import Path

    from passcheck.errors import PasscheckError
    from passcheck.matrix import create
    from passcheck.matrix import envs as envmod
    from passcheck.matrix.hunt import EnvJudge

    specs = envmod.select(args.env, args.envs_dir)
    judge = EnvJudge(
        envs=specs,
        source=envmod.installable_source(args.source),
        work=Path(args.out).resolve() / "env-runs",
        cases_from=cases_from,
        timeout=args.timeout,
        cache=Path(args.cache_dir).resolve() if args.cache_dir else None,
        repro_env=dict(zip([s.id for s in specs], args.env)),
    )
    t0 = time.monotonic()
    try:
        judge.prepare()
    except create.EnvCreateError as exc:
        raise PasscheckError(str(exc)) from None
    print(f"passcheck hunt: {len(specs)} environments ready in {time.monotonic() - t0:.1f} s", file=sys.stderr)
    return judge


def _bisect_commands(store) -> None:
    """Each windowed signature's ``passcheck bisect`` command (or why there is none), in its record,
    from its own window and the pins the hunt's scope records (``env_pins``)."""
    from passcheck.matrix.hunt import bisect_commands

    bisect_commands(store.signatures, store.scope.get("env_pins") or {}, store.scope.get("cases_from", ()))


def _lifted(found, executor):
    """``found`` with the lifted bases (:func:`passcheck.hunt.lift.lifted_bases`), sorted by id; the census on
    stderr."""
    from passcheck.hunt.lift import Census, lifted_bases

    census = Census()
    more = lifted_bases(found, executor, census=census)
    print(f"passcheck hunt: {census.line()}", file=sys.stderr)
    return sorted([*found, *more], key=lambda b: b.id)


def _steering(found, executor, args, named):
    """The :class:`~passcheck.hunt.lazymap.Steering` of the hunt: the coverage map of its bases (the
    first form of each case), rows observed inside the budget and cached per tool version, and the pass
    plan each step's rows give (``--pass``: the named passes); ``--map-first``: every row from step 0."""
    from passcheck.coverage.cache import Cache
    from passcheck.hunt import passes as hpasses
    from passcheck.hunt.lazymap import LazyMap, Steering

    firsts = [b for b in found if b.form == next(iter(b.case.forms))]
    first = {"first": len(firsts)} if args.map_first else {}
    lazy = LazyMap(firsts, args.seed, executor, Cache(), passes=list(named) if named else None, **first)
    return Steering(lazy, lambda cmap: hpasses.explicit(named, found) if named else hpasses.relevant(found, cmap))


def summarize(store, known, over: str, ended, seconds: float | None, args, setup: float | None = None) -> dict:
    """Print the summary of ``store`` (stderr: counts, rate, known signatures, noise; stdout: the
    table of new signatures and their reproduce commands), write ``OUT/summary.md`` and, with
    ``--write-baseline``, the baseline; return the new signatures (all of them without ``known``).
    ``seconds``: wall seconds of the search loop; ``setup``: wall seconds before it (both said on the summary
    line, with the loop's share spent observing coverage rows, :attr:`~passcheck.hunt.search.Ended.observing`)."""
    from passcheck.hunt import baseline, documented, noise
    from passcheck.hunt.store import OTHER_SHARD
    from passcheck.hunt.summary import markdown, status_counts, table
    from passcheck.report.json_report import atomic_write

    new, old = baseline.split(store.signatures, known or {})
    ran = [r for r in store.items if r["status"] != OTHER_SHARD]
    if ended is not None:
        why = {"budget": "budget spent", "stopped": f"--stop-after {getattr(args, 'stop_after', None)} reached"}.get(
            ended.why, "every item tried"
        )
        rate = f"{ended.items / seconds:.2f} items/s" if seconds else "-"
        head = f"{ended.items} items this run ({len(ran)} in all: {status_counts(ran)}) over {over}; {why}; {rate}"
        if seconds is not None:  # where the wall time went: a time budget bounds the loop, not the set-up
            before = getattr(ended, "setup", 0.0)
            head += f"; wall {seconds - before:.0f} s searching ({getattr(ended, 'observing', 0.0):.0f} s of it "
            head += f"observing rows) after {before + (setup or 0.0):.0f} s of set-up"
    else:
        busy = sum(r.get("seconds", 0.0) for r in ran)
        rate = f"{len(ran) / busy:.2f} items per item-second" if busy else "-"
        head = f"{len(ran)} items ({status_counts(ran)}), {rate}, from {over}"
    print(
        f"passcheck hunt: {head}; {len(store.signatures)} distinct signatures: {len(new)} new, {len(old)} known"
        + (f" (baseline {args.baseline})" if known is not None else "")
        + f"; state {store.path}",
        file=sys.stderr,
    )
    if old:
        hits = sum(r.get("hits", 0) for r in old.values())
        print(f"known signatures seen again: {len(old)} ({hits} hits)", file=sys.stderr)
        for key, rec in old.items():
            if (entry := documented.which(key, rec)) is not None:
                print(f"  known ({documented.label(entry)}): {key}", file=sys.stderr)
    print("\n".join(noise.lines(ran)), file=sys.stderr)
    if died := noise.deaths_line(ran):
        print(died, file=sys.stderr)
    if new or not old:
        table(new, sys.stdout)
    else:
        print(f"no new signature ({len(old)} known)", file=sys.stdout)
    title = f"passcheck hunt {store.out}" + (f" (shard {store.scope['shard']})" if store.scope.get("shard") else "")
    atomic_write(store.out / "summary.md", markdown(store.signatures, store.items, known, title))
    if args.write_baseline:
        n = baseline.write(args.write_baseline, store.signatures, known)
        print(f"passcheck hunt: wrote {n} signatures to {args.write_baseline}", file=sys.stderr)
    return new


def _check_rewrites(globs) -> None:
    """Refuse a ``--rewrite`` glob that matches no rewrite id (a typo would give a hunt of no item that exits 0).

    Raises:
        PasscheckError: the glob, and where the ids are listed.
    """
    import fnmatch

    from passcheck.errors import PasscheckError
    from passcheck.mutations.registry import REWRITES

    for glob in globs:
        if not fnmatch.filter(REWRITES, glob.partition(":")[0]):
            raise PasscheckError(f"--rewrite {glob!r} matches no rewrite id (passcheck list --rewrites)")


def _check_vary_kinds(globs) -> None:
    """Refuse a ``--vary-kind`` glob whose family part (before the first ``-``) names no variation family: a
    typo would otherwise give a hunt of no item that exits 0.

    Raises:
        PasscheckError: the glob and the families.
    """
    import fnmatch

    from passcheck.errors import PasscheckError
    from passcheck.hunt import (
        vary_group,
        vary_int,
        vary_saturate,
        vary_scale,
        vary_target,
        vary_twin,
        vary_twin_output,
        vary_zero_sign,
    )
    from passcheck.hunt.variation import ELEM_KINDS, FAMILIES, SHAPE_KINDS, VALUE_KINDS

    fixed = (
        *VALUE_KINDS,
        *SHAPE_KINDS,
        *vary_int.KINDS,
        *vary_scale.KINDS,
        *vary_twin.KINDS,
        *ELEM_KINDS,
        "opt-fill",
        "expose",
        "expose-input",
        "operand-computed",
        "reshape-rank",
        "input-axis-one",
        "fanout",
        *vary_twin_output.KINDS,
        *vary_zero_sign.KINDS,
        *vary_saturate.KINDS,
        *vary_group.KINDS,
        *vary_target.KINDS,
    )
    for glob in globs:
        named_family = "-" in glob and fnmatch.filter(FAMILIES, glob.split("-", 1)[0])  # attr-<name>, bind-…
        if not named_family and not fnmatch.filter(fixed, glob):
            raise PasscheckError(
                f"--vary-kind {glob!r} matches no variation kind; kinds are <family>[-<detail>], families: "
                + ", ".join(FAMILIES)
            )
