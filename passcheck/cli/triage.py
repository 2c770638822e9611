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
        epilog="exit codes: 0 every candidate was triaged (reproduced, not reproduced or refused, each with "
        "its reason in index.md); 1 a candidate was not reached (the --budget ran out before it: raise "
        "it or triage fewer runs); 2 a usage or input error (one line); 3 an internal error.",
    )
    p.add_argument("runs", nargs="+", metavar="RUN", help="a 'run --json' report, a --save-run folder or a hunt folder")
    p.add_argument("--out", required=True, metavar="DIR", help="a new (or empty) folder for the bundles and index.md")
    p.add_argument(
        "--budget",
        type=positive(float),
        metavar="S",
        help="seconds for the whole triage; candidates not started within it are listed as 'not reached' "
        "and the exit code is 1",
    )
    p.add_argument(
        "--cases-from",
        action="append",
        default=[],
        metavar="PATH",
        help="case module file or folder the runs' cases come from",
    )
    p.add_argument(
        "--reduce-seconds",
        type=_seconds,
        default=30.0,
        metavar="S",
        help="at most this long per candidate reducing its pair to the fewest nodes that still show it "
        "(0: not reduced; default: %(default)s)",
    )
    p.add_argument(
        "--bisect",
        action="store_true",
        help="name the first bad version of each reproduced candidate: bisect over the versions of its tool that "
        "the pinned environments (ci/envs/*.txt) name; builds one environment per version probed",
    )
    p.add_argument(
        "--python",
        metavar="PATH",
        help="run each repro.py with this interpreter instead of passcheck's (e.g. a venv holding only onnx, "
        "onnxruntime, numpy and the tool: the bundle is kept only when it exits 1 there); its versions of those "
        "four must be the ones here",
    )
    p.add_argument("--envs-dir", metavar="DIR", help="with --bisect: the pinned environments folder (default: ci/envs)")
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

    from passcheck.errors import PasscheckError
    from passcheck.triage.index import found_md
    from passcheck.triage.run import triage

    if args.envs_dir and not args.bisect:
        raise PasscheckError("--envs-dir goes with --bisect")
    partial = _say_partial(args.runs)
    done = triage(
        args.runs,
        args.out,
        args.budget,
        args.cases_from,
        say=print,
        reduce_seconds=args.reduce_seconds,
        bisector=_bisector(args.envs_dir) if args.bisect else None,
        python=args.python,
    )
    counts: dict[str, int] = {}
    for r in done.rows:
        counts[r["outcome"].status] = counts.get(r["outcome"].status, 0) + 1
    print(
        f"{len(done.rows)} candidates ({', '.join(f'{v} {k}' for k, v in counts.items()) or 'none'}) in "
        f"{done.seconds:.0f} s: {Path(args.out) / 'index.md'}"
        + (f" (from {len(partial)} partial report{'s' * (len(partial) > 1)}: {', '.join(partial)})" if partial else "")
    )
    if args.found:
        words = [
            *args.runs,
            "--out",
            args.out,
            *(["--budget", f"{args.budget:g}"] if args.budget else []),
            *(["--reduce-seconds", f"{args.reduce_seconds:g}"] if args.reduce_seconds != 30 else []),
            *(["--bisect"] if args.bisect else []),
            *(["--envs-dir", args.envs_dir] if args.envs_dir else []),
            *(["--python", args.python] if args.python else []),
            *(w for p in args.cases_from for w in ("--cases-from", p)),
        ]
        command = "passcheck triage " + " ".join(shlex.quote(str(w)) for w in words)
        text = found_md(done.rows, command, done.versions, done.seconds, args.found_note)
        Path(args.found).write_text(text, encoding="utf-8")
        print(f"wrote {args.found}")
    # as everywhere: 0 only when everything was looked at; an unreached candidate was not
    return 1 if counts.get("not reached") else 0


def _say_partial(runs) -> list[str]:
    """The reports among ``runs`` an interrupted run wrote (``"partial": true``), each said on stderr as
    ``attribute`` says it (:func:`passcheck.cli._common.read_run`): a triage of one holds the cells the run reached
    only, so "0 candidates" is about those."""
    import sys
    from pathlib import Path

    from passcheck.report.json_report import is_partial
    from passcheck.report.partial import PARTIAL

    partial = [str(r) for r in runs if Path(r).is_file() and is_partial(r)]
    for r in partial:
        print(f"passcheck: {r}: {PARTIAL}", file=sys.stderr)
    return partial


def _seconds(text: str) -> float:
    """argparse type: seconds, 0 or more (below 10^7)."""
    import argparse
    import math

    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected seconds (0 or more), got {text!r}") from None
    if not (math.isfinite(value) and 0 <= value < 10**7):
        raise argparse.ArgumentTypeError(f"expected seconds from 0 to below 10^7, got {text!r}")
    return value


def _bisector(envs_dir):
    """``triage``'s bisector: ``passcheck bisect``'s search and probes over the versions the pinned environments
    name; writes ``FOLDER/bisect.json`` and returns (REPORT.md's "First bad version" text, that record)."""

    def bisector(finding, package, folder, cases_from):
        import json

        from passcheck.bisect.probe import Prober
        from passcheck.bisect.search import bisect
        from passcheck.bisect.versions import pinned
        from passcheck.cli.bisect import record
        from passcheck.errors import PasscheckError
        from passcheck.matrix import envs as envmod
        from passcheck.report.json_report import atomic_write
        from passcheck.repro.bisected import first_bad

        versions = pinned(package, envs_dir)
        if len(versions) < 2:
            raise PasscheckError(f"the pinned environments name {len(versions)} version(s) of {package}; 2 needed")
        prober = Prober(finding, package, envmod.installable_source(None), (folder / "bisect").resolve(), cases_from)
        doc = record(finding, package, versions, bisect(versions, prober))
        atomic_write(folder / "bisect.json", json.dumps(doc, indent=1) + "\n")
        return first_bad(folder / "bisect.json", finding.id, package), doc

    return bisector
