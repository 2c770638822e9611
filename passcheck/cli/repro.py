"""``passcheck repro REPORT.json --finding ID --out DIR``: a standalone reproducer for an upstream report.

Writes ``DIR/repro.py`` (needs only onnx, onnxruntime, numpy and the tool under test; exits 1
while the bug is present, 0 once fixed, 2 when its own set-up or a premise fails), the form(s)
it rebuilds (``common.onnx`` / ``uncommon.onnx`` for a two-form finding, ``form.onnx`` for a
one-form one) and ``DIR/REPORT.md`` (its first bad version from ``--bisect BISECT.json``, else
"not bisected"). Before anything is kept the script is run here and must exit 1. For an
``ort:*`` missed optimization the attribution stored by ``passcheck attribute`` is used when
present; otherwise it is computed here (isolated sessions). A finding no script states faithfully
is refused in one line (exit 2).
"""

from __future__ import annotations

from pathlib import Path

from passcheck.errors import PasscheckError


def add_parser(sub) -> None:
    p = sub.add_parser(
        "repro",
        help="write a standalone script and REPORT.md reproducing a finding",
        description="The script rebuilds the form(s) with onnx.helper (initializers and feeds embedded), runs only "
        "the tool under test, checks what the oracle claimed, and exits 1 while the bug is present.",
    )
    p.add_argument("report", metavar="REPORT.json")
    p.add_argument(
        "--finding",
        metavar="ID",
        help="the finding's id (default: the first unexpected finding of the highest rank "
        "repro can script: crash > wrong result > invalid output > wrong shape or type > missed optimization)",
    )
    p.add_argument(
        "--out", required=True, metavar="DIR", help="folder to write repro.py, REPORT.md and the model(s) into"
    )
    p.add_argument(
        "--cases-from",
        action="append",
        default=[],
        metavar="PATH",
        help="case module file or folder the report's cases come from",
    )
    p.add_argument(
        "--bisect",
        metavar="BISECT.json",
        help="the bisect.json 'passcheck bisect' wrote: REPORT.md names the first bad version from it",
    )
    p.add_argument(
        "--no-attribute",
        action="store_true",
        help="do not bisect onnxruntime transformers when the report holds no attribution",
    )
    p.set_defaults(handler=handle)


def handle(args) -> int:
    from passcheck._versions import environment
    from passcheck.cli._common import report_file
    from passcheck.report.json_report import read_report
    from passcheck.repro import bundle
    from passcheck.repro.bisected import first_bad
    from passcheck.repro.plan import choose, is_ort_parity
    from passcheck.repro.tools import package

    cells, _ = read_report(report_file(args.report))
    f, chosen = choose(cells, args.finding)
    if chosen:
        print(chosen)
    bisected = first_bad(args.bisect, f.id, package(f.pass_id))  # a bad --bisect file fails before any work
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise PasscheckError(f"--out {out}: exists and is not a folder")
    attribution = None
    if is_ort_parity(f) and not f.attribution and not args.no_attribute:
        attribution = _attribute(f, args.cases_from)
    text, models, md, how = bundle.build(f, environment(), args.cases_from, bisected, attribution)
    bug = bundle.write(out, text, models, md)
    print(
        f"wrote {out / 'repro.py'} ({', '.join(f'{k}: {v}' for k, v in how.items())}), {out / 'REPORT.md'}, "
        + ", ".join(str(out / n) for n in models)
    )
    print(f"checked here: exit 1, {bug}")
    return 0


def _attribute(f, cases_from) -> list[str]:
    from passcheck.attribution.dispatch import attribute
    from passcheck.passes.isolation import executor_for

    with executor_for(None) as ex:  # its worker holds the tools' block too (M311); kept for the next (M530)
        attribution, note = attribute(f, ex, cases_from)
    print(f"attribution: {', '.join(attribution) or note}")
    return attribution
