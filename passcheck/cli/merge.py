"""``passcheck merge DIR...``: join matrix shard outputs into one report."""

from __future__ import annotations

from pathlib import Path

DEFAULT_OUT = "passcheck-matrix"


def add_parser(sub) -> None:
    from passcheck.cli.matrix import add_verdict_args

    p = sub.add_parser(
        "merge",
        help="join the --out folders of sharded 'passcheck matrix' or 'passcheck hunt' runs",
        description="Join shard outputs into one report (report.json, report.xml, report.md) in --out. "
        "Every folder must be a shard of the same plan and every shard must be there and complete, "
        "else merge stops (exit 2) naming the missing shards or mismatched plans. "
        "Folders of 'passcheck hunt --shard' (they hold hunt-state.json) are joined "
        "into one hunt state in --out (signatures de-duplicated, hits summed, each shrunk "
        "pair kept once, summary.md); there --baseline and --write-baseline are signature "
        "baselines ('passcheck hunt --write-baseline'); exit 1 on a new signature.",
    )
    p.add_argument("dirs", nargs="+", metavar="DIR")
    p.add_argument(
        "--out",
        metavar="DIR",
        help=f"where to write the merged report (default: {DEFAULT_OUT} in the working folder, passcheck-hunt for hunt "
        "folders; its path is printed)",
    )
    p.add_argument(
        "--allow-partial",
        action="store_true",
        help="merge missing, incomplete or unrelated shards anyway: a warning, and the report says partial",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="do not print the matrix tables")
    add_verdict_args(p)
    p.set_defaults(handler=handle)


def handle(args) -> int:
    import sys

    from rich.console import Console

    from passcheck.cli.matrix import conclude
    from passcheck.hunt.merge import is_hunt
    from passcheck.matrix import report, verdict
    from passcheck.matrix.merge import merge
    from passcheck.report import baseline

    hunts = [is_hunt(d) for d in args.dirs]
    if any(hunts):
        if not all(hunts):
            from passcheck.errors import PasscheckError

            raise PasscheckError(
                "merge: give either hunt folders (hunt-state.json) or matrix folders, not both: "
                + ", ".join(d for d, h in zip(args.dirs, hunts) if not h)
                + " hold no hunt state"
            )
        return _hunts(args)
    if args.baseline:
        baseline.load(args.baseline)  # a bad file is a usage error before any work
    cells, envs, meta = merge(args.dirs, allow_partial=args.allow_partial)
    if meta.get("partial"):
        print(f"passcheck: warning: partial merge: {meta['partial']}", file=sys.stderr)
    if args.baseline:
        meta["baseline"] = verdict.apply_baseline(cells, args.baseline, [e["id"] for e in meta.get("environments", [])])
    out = Path(args.out or DEFAULT_OUT)
    _say_default(args, out)
    out.mkdir(parents=True, exist_ok=True)
    envs = report.write_all(out, cells, envs, meta)
    console = Console(soft_wrap=True)
    planned = (meta.get("plan") or {}).get("cells")
    code = conclude(args, out, cells, envs, console)
    print(
        f"merged {len(args.dirs)} folders, {len(cells)} cells"
        + (f" of {planned} planned" if planned else "")
        + (" (PARTIAL)" if meta.get("partial") else "")
        + f" → {out}/report.json, report.xml, report.md"
    )
    return code


def _hunts(args) -> int:
    """Join ``passcheck hunt`` folders (see :mod:`passcheck.hunt.merge`) and print the hunt's summary."""
    import sys

    from passcheck.cli.hunt import summarize
    from passcheck.hunt import baseline
    from passcheck.hunt.merge import merge

    known = baseline.load(args.baseline) if args.baseline else None
    out = args.out or "passcheck-hunt"
    _say_default(args, out)
    store, partial = merge(args.dirs, out, allow_partial=args.allow_partial)
    if store.scope.get("env_pins"):  # hunt --env shards: each signature's bisect from its joined window
        from passcheck.matrix.hunt import bisect_commands

        bisect_commands(store.signatures, store.scope["env_pins"], store.scope.get("cases_from", ()))
        store.save()
    if partial:
        print(f"passcheck: warning: partial merge: {partial}", file=sys.stderr)
    new = summarize(store, known, f"{len(args.dirs)} folders" + (" (PARTIAL)" if partial else ""), None, None, args)
    print(f"merged {len(args.dirs)} hunt folders → {store.path}, {store.out / 'summary.md'}", file=sys.stderr)
    return 1 if new else 0


def _say_default(args, out) -> None:
    """One stderr line before any write when ``--out`` was not given: the default folder is made in the working
    folder, not beside the folders merged, so its absolute path is named."""
    import sys

    if args.out is None:
        print(f"passcheck: no --out given: writing the merge into {Path(out).resolve()}", file=sys.stderr)
