"""``passcheck bisect [REPORT.json] --finding ID --package onnxruntime --from 1.20 --to 1.32``:
the first bad and last good released versions of a tool for one finding.

Each probed version gets a pinned uv environment (cached like the matrix's) where only that
package differs from this interpreter's tools; the finding's case and pass run there through the
matrix machinery, and the finding's id (``case:form|pass|oracle|kind``) is looked for. Findings of
``passcheck check`` / ``compare`` come from a model, not a case: ``passcheck reduce`` writes a case
module for them, given here with ``--cases-from``. Writes ``DIR/bisect.json`` and each probe's
matrix output under ``DIR/<version>/``. Exit 0 when the state changes in the range (a regression:
first bad / last good; or a fix: fixed in / last bad), 1 when it does not or nothing could be
tested, 2 on bad input.
"""

from __future__ import annotations

import sys


def add_parser(sub) -> None:
    from passcheck.bisect.versions import PACKAGES
    from passcheck.cli._common import add_progress_arg, positive

    p = sub.add_parser(
        "bisect",
        help="find the first bad and last good released version of a tool for one finding",
        description="Binary search over the released versions of --package: each probe runs the finding's case "
        "and pass in a pinned environment where only that package differs.",
    )
    p.add_argument(
        "report",
        metavar="REPORT.json",
        nargs="?",
        help="a stored report holding the finding (optional when --finding is a full id)",
    )
    p.add_argument(
        "--finding",
        metavar="ID",
        help="the finding's id, case:form|pass|oracle|kind (default: the report's only unexpected finding)",
    )
    p.add_argument("--package", required=True, choices=PACKAGES, help="the tool whose versions are searched")
    p.add_argument(
        "--from", dest="lo", metavar="VERSION", help="oldest version (a prefix: 1.20 means 1.20.0 and later)"
    )
    p.add_argument("--to", dest="hi", metavar="VERSION", help="newest version (a prefix: 1.32 means every 1.32.x)")
    p.add_argument("--versions", metavar="A,B,C", help="the versions to search, instead of asking the package index")
    p.add_argument(
        "--cases-from",
        action="append",
        default=[],
        metavar="PATH",
        help="case module file or folder the finding's case comes from",
    )
    p.add_argument(
        "--out",
        default="passcheck-bisect",
        metavar="DIR",
        help="folder for bisect.json and each probe's output (default: %(default)s)",
    )
    p.add_argument(
        "--timeout",
        type=positive(float),
        default=300.0,
        metavar="S",
        help="seconds without a result before a probe's worker is killed (default: %(default)s)",
    )
    p.add_argument(
        "--cache-dir", metavar="DIR", help="environment cache (default: $PASSCHECK_CACHE or ~/.cache/passcheck)"
    )
    p.add_argument(
        "--source",
        metavar="DIR",
        help="passcheck source tree installed into each environment (default: found automatically)",
    )
    add_progress_arg(p, quiet=True)
    p.set_defaults(handler=handle)


def handle(args) -> int:
    import json
    from pathlib import Path

    from passcheck.bisect.probe import Prober
    from passcheck.bisect.search import bisect
    from passcheck.bisect.versions import in_range, released
    from passcheck.errors import PasscheckError
    from passcheck.matrix import envs as envmod
    from passcheck.report.json_report import atomic_write

    finding = _finding(args)
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise PasscheckError(f"--out {out}: exists and is not a folder")
    source = envmod.installable_source(args.source)  # the flag, $PASSCHECK_SOURCE, the checkout, pip's recorded origin
    available = [v.strip() for v in args.versions.split(",") if v.strip()] if args.versions else released(args.package)
    versions = in_range(available, args.lo, args.hi)
    if not versions:
        raise PasscheckError(
            f"no released {args.package} version between {args.lo or 'the first'} and {args.hi or 'the last'}"
        )
    out.mkdir(parents=True, exist_ok=True)
    print(
        f"bisect {finding.id} over {args.package} {versions[0]} … {versions[-1]} ({len(versions)} versions)",
        file=sys.stderr,
    )
    prober = Prober(
        finding,
        args.package,
        source,
        out.resolve(),
        args.cases_from,
        Path(args.cache_dir).resolve() if args.cache_dir else None,
        args.timeout,
        "none",
    )

    def probe(version: str):
        print(f"  {args.package} {version}: …", file=sys.stderr, flush=True)
        v = prober(version)
        print(
            f"  {args.package} {version}: {v.state}{' (' + v.reason + ')' if v.reason else ''}",
            file=sys.stderr,
            flush=True,
        )
        return v

    result = bisect(versions, probe)
    doc = record(finding, args.package, versions, result)
    atomic_write(out / "bisect.json", json.dumps(doc, indent=1) + "\n")
    print(f"{args.package}: {result.conclusion}")
    print(f"wrote {out / 'bisect.json'}", file=sys.stderr)
    return 0 if result.direction != "none" else 1


def record(finding, package: str, versions, result) -> dict:
    """``bisect.json``'s document for ``result`` (a :class:`passcheck.bisect.Outcome`) over ``versions``."""
    return {
        "finding": finding.id,
        "package": package,
        "range": list(versions),
        "direction": result.direction,
        "last_old": result.last_old,
        "first_new": result.first_new,
        "skipped_between": list(result.skipped_between),
        "conclusion": result.conclusion,
        "probes": [
            {"version": v.version, "state": v.state, "reason": v.reason, "versions": v.versions} for v in result.probes
        ],
    }


def _finding(args):
    """The finding to bisect: from the report (by id, or its only unexpected finding), or a bare
    id ``case:form|pass|oracle|kind`` when no report is given."""
    from passcheck.errors import PasscheckError
    from passcheck.records import Finding

    if args.report:
        from passcheck.cli._common import report_file
        from passcheck.report.json_report import read_report

        cells, _ = read_report(report_file(args.report))
        findings = [f for c in cells for f in c.findings]
        if args.finding:
            for f in findings:
                if f.id == args.finding:
                    return f
            raise PasscheckError(
                f"no finding {args.finding!r} in {args.report}; its ids: "
                + (", ".join(sorted({f.id for f in findings})[:12]) or "none")
            )
        fit = sorted({f.id: f for f in findings if not f.expected}.values(), key=lambda f: f.id)
        if len(fit) != 1:
            raise PasscheckError(
                f"{len(fit)} unexpected findings in {args.report}; choose one with --finding ID"
                + (": " + ", ".join(f.id for f in fit[:12]) if fit else "")
            )
        return fit[0]
    if not args.finding:
        raise PasscheckError("give a REPORT.json or --finding case:form|pass|oracle|kind")
    try:
        where, pass_id, oracle, kind = args.finding.split("|")
        case, form = where.rsplit(":", 1)
    except ValueError:
        raise PasscheckError(f"--finding {args.finding!r}: expected case:form|pass|oracle|kind") from None
    if not all((case, form, pass_id, oracle, kind)):
        raise PasscheckError(f"--finding {args.finding!r}: expected case:form|pass|oracle|kind")
    return Finding(case=case, form=form, oracle=oracle, kind=kind, pass_id=pass_id, message="")
