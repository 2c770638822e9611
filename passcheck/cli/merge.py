"""``passcheck merge DIR...``: join matrix shard outputs into one report."""

from __future__ import annotations

from pathlib import Path


def add_parser(sub) -> None:
    from passcheck.cli.matrix import add_verdict_args

    p = sub.add_parser(
        "merge",
        help="join the --out folders of sharded 'passcheck matrix' runs into one report",
        description="Join shard outputs into one report (report.json, report.xml, report.md) in --out. "
        "Every folder must be a shard of the same plan and every shard must be there and complete, "
        "else merge stops (exit 2) naming the missing shards or mismatched plans.",
    )
    p.add_argument("dirs", nargs="+", metavar="DIR")
    p.add_argument(
        "--out",
        default="passcheck-matrix",
        metavar="DIR",
        help="where to write the merged report (default: %(default)s)",
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
    from passcheck.matrix import report, verdict
    from passcheck.matrix.merge import merge
    from passcheck.report import baseline

    if args.baseline:
        baseline.load(args.baseline)  # a bad file is a usage error before any work
    cells, envs, meta = merge(args.dirs, allow_partial=args.allow_partial)
    if meta.get("partial"):
        print(f"passcheck: warning: partial merge: {meta['partial']}", file=sys.stderr)
    if args.baseline:
        meta["baseline"] = verdict.apply_baseline(cells, args.baseline, [e["id"] for e in meta.get("environments", [])])
    out = Path(args.out)
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
