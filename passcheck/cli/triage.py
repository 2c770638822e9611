"""``passcheck triage RUN.json|SAVE_RUN_DIR|HUNT_DIR… --out DIR [--budget S]``: from runs and hunts to
ranked bug bundles (issue 31). The work is :func:`passcheck.triage.run.triage`; this module
translates arguments and prints."""

from __future__ import annotations


def add_parser(sub) -> None:
    from passcheck.cli._common import positive

    p = sub.add_parser(
        "triage",
        help="group a run's or hunt's findings into ranked candidate defects and write a bug "
        "bundle (pair, repro.py, REPORT.md, candidate.json) for each",
        description="Candidates are ranked crash > wrong result > invalid output > wrong shape "
        "or type > missed optimization; each is scripted with passcheck repro's machinery "
        "and kept only when the script exits 1 here. DIR/index.md lists every candidate "
        "with its status.",
    )
    p.add_argument("runs", nargs="+", metavar="RUN", help="a 'run --json' report, a --save-run folder or a hunt folder")
    p.add_argument("--out", required=True, metavar="DIR", help="a new (or empty) folder for the bundles and index.md")
    p.add_argument(
        "--budget",
        type=positive(float),
        metavar="S",
        help="seconds for the whole triage; candidates not started within it are listed as 'not reached'",
    )
    p.add_argument(
        "--cases-from",
        action="append",
        default=[],
        metavar="PATH",
        help="case module file or folder the runs' cases come from",
    )
    p.add_argument("--found", metavar="FILE", help="also write the public record (docs/found.md) of this triage here")
    p.add_argument(
        "--found-note",
        default="",
        metavar="TEXT",
        help="a paragraph for --found under the command (how the runs and hunts were made)",
    )
    p.set_defaults(handler=handle)


def handle(args) -> int:
    import shlex
    from pathlib import Path

    from passcheck.triage.index import found_md
    from passcheck.triage.run import triage

    done = triage(args.runs, args.out, args.budget, args.cases_from, say=print)
    counts: dict[str, int] = {}
    for r in done.rows:
        counts[r["outcome"].status] = counts.get(r["outcome"].status, 0) + 1
    print(
        f"{len(done.rows)} candidates ({', '.join(f'{v} {k}' for k, v in counts.items()) or 'none'}) in "
        f"{done.seconds:.0f} s: {Path(args.out) / 'index.md'}"
    )
    if args.found:
        words = [
            *args.runs,
            "--out",
            args.out,
            *(["--budget", f"{args.budget:g}"] if args.budget else []),
            *(w for p in args.cases_from for w in ("--cases-from", p)),
        ]
        command = "passcheck triage " + " ".join(shlex.quote(str(w)) for w in words)
        text = found_md(done.rows, command, done.versions, done.seconds, args.found_note)
        Path(args.found).write_text(text, encoding="utf-8")
        print(f"wrote {args.found}")
    return 0
