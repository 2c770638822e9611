"""``passcheck merge DIR...``: join matrix shard outputs into one report."""

from __future__ import annotations

from pathlib import Path


def add_parser(sub) -> None:
    p = sub.add_parser("merge", help="join the --out folders of sharded 'passcheck matrix' runs into one report",
                       description="Join shard outputs into one report (report.json, report.xml, report.md) in --out.")
    p.add_argument("dirs", nargs="+", metavar="DIR")
    p.add_argument("--out", default="passcheck-matrix", metavar="DIR", help="where to write the merged report (default: %(default)s)")
    p.add_argument("-q", "--quiet", action="store_true", help="do not print the matrix tables")
    p.set_defaults(handler=handle)


def handle(args) -> int:
    from rich.console import Console

    from passcheck.matrix import report
    from passcheck.matrix.merge import merge

    cells, envs, meta = merge(args.dirs)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    envs = report.write_all(out, cells, envs, meta)
    report.render_terminal(cells, envs, Console(soft_wrap=True), tables=not args.quiet)
    print(f"merged {len(args.dirs)} folders, {len(cells)} cells → {out}/report.json, report.xml, report.md")
    from passcheck.records import exit_code

    return exit_code(cells)
