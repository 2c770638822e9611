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
        "once or at one site, under each pass; guided toward untried (op type, rewrite, pass) triples. "
        "Each distinct finding signature (pass, oracle, kind, op types, rewrite) is shrunk to a minimal "
        "pair and saved as a case module in OUT/cases (load it with --cases-from). State is kept in "
        "OUT/hunt-state.json after every item; --resume continues it. Exit 1 when a signature was found.",
    )
    p.add_argument(
        "--budget",
        type=_budget,
        default=_budget("10m"),
        metavar="TIME|Nitems",
        help="how long to search: 90s, 10m, 1h, or a count of items such as 40items (default: 10m); checked between items",
    )
    add_pass_args(p)
    p.add_argument(
        "--case",
        action="append",
        default=[],
        metavar="GLOB",
        help="base cases: id or tag glob (repeatable); default: the hand-written library, --cases-from modules and the generated set",
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
        "--no-coverage",
        action="store_true",
        help="do not steer by the coverage map (the catalogue entries the bases trigger, see 'passcheck coverage')",
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
        "--timeout",
        type=positive(float),
        default=ITEM_TIMEOUT,
        metavar="SECONDS",
        help="wall time one pass or model run of an item may take (default: %(default)s; never more than the time left)",
    )
    add_progress_arg(p)
    p.set_defaults(handler=handle)


def handle(args) -> int:
    from pathlib import Path

    from passcheck.api import require_available
    from passcheck.cases import load_path
    from passcheck.cli._common import progress
    from passcheck.engine import INPUT
    from passcheck.hunt.search import hunt
    from passcheck.hunt.space import bases
    from passcheck.hunt.store import Store
    from passcheck.passes import DEFAULT_PASSES
    from passcheck.passes.isolation import executor_for

    for p in args.cases_from:  # they may register passes
        load_path(p)
    passes = list(dict.fromkeys(args.passes)) or [p for p in DEFAULT_PASSES]
    require_available([p for p in passes if p != INPUT])
    cases_from = [str(Path(p).resolve()) for p in args.cases_from]
    scope = {
        "seed": args.seed,
        "passes": passes,
        "cases": list(args.case),
        "cases_from": cases_from,
        "generated": not args.no_generated,
    }
    found = bases(args.case, generated=not args.no_generated)
    if not found:
        from passcheck.errors import PasscheckError

        raise PasscheckError("no base case runs here (every selected case is skipped); choose others with --case")
    store = Store.open(args.out, scope, args.resume)
    store.save()  # an --out that cannot be written fails now, before any work
    done_before = len(store.items)
    before = list(store.items)
    with executor_for(None, timeout=args.timeout, preload=cases_from) as ex:
        # the map (cached per tool version) is read before the budget starts: it is not the search
        cmap = None if args.no_coverage else _coverage_map(found, ex)
        with progress(args, args.budget.items, "items") as prog:

            def on_item(item, rec):
                prog.advance(f"{len(store.signatures)} signatures", f"{item.pass_id} {item.form} on {item.base}")

            try:
                ended = hunt(
                    store, found, passes, args.seed, args.budget, ex, cases_from=cases_from, on_item=on_item, cmap=cmap
                )
            finally:
                prog.close()
                store.save()
    _summary(store, len(found), done_before, ended)
    if cmap is not None:
        from passcheck.hunt.summary import coverage_lines

        print("\n".join(coverage_lines(cmap, before, store.items)), file=sys.stderr)
    return 1 if store.signatures else 0


def _coverage_map(found, executor):
    """The coverage map of the hunt's bases (the first form of each case; cached per tool version)."""
    import time

    from passcheck.hunt.coverage import library_map

    t0 = time.monotonic()
    firsts = [b for b in found if b.form == next(iter(b.case.forms))]
    cmap = library_map(bases=firsts, executor=executor)
    print(
        f"passcheck hunt: coverage map of {len(firsts)} bases in {time.monotonic() - t0:.1f} s: "
        f"{sum(map(cmap.triggered, cmap.entries))} of {len(cmap.entries)} catalogue entries triggered",
        file=sys.stderr,
    )
    return cmap


def _summary(store, n_bases: int, done_before: int, ended) -> None:
    from collections import Counter

    from passcheck.hunt.summary import table

    statuses = Counter(r["status"] for r in store.items)
    why = "budget spent" if ended.why == "budget" else "every item tried"
    counts = ", ".join(f"{n} {s}" for s, n in sorted(statuses.items()))
    print(
        f"passcheck hunt: {ended.items} items this run ({len(store.items)} in all: {counts}) over {n_bases} bases; {why}; "
        f"{len(store.signatures)} distinct signatures; state {store.path}",
        file=sys.stderr,
    )
    table(store.signatures, sys.stdout)
