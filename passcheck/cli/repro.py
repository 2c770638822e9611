"""``passcheck repro REPORT.json --finding ID --out DIR``: a standalone reproducer for an upstream report.

Writes ``DIR/repro.py`` (needs only onnx, onnxruntime, numpy; exits 1 while the bug is present,
0 once fixed, 2 when its own set-up fails), ``DIR/common.onnx`` and ``DIR/uncommon.onnx`` (the
two forms) and ``DIR/REPORT.md`` (its first bad version from ``--bisect BISECT.json``, else "not
bisected"). Covers ``ort:*`` parity findings. The attribution stored by
``passcheck attribute`` is used when present; otherwise it is computed here (isolated sessions).
"""

from __future__ import annotations


def add_parser(sub) -> None:
    p = sub.add_parser("repro", help="write a standalone script and REPORT.md reproducing an ort:* parity finding",
                       description="The script rebuilds both forms with onnx.helper (initializers embedded), runs only "
                                   "onnxruntime's optimizer, and exits non-zero while the bug is present.")
    p.add_argument("report", metavar="REPORT.json")
    p.add_argument("--finding", metavar="ID", help="the finding's id (default: the report's only unexpected ort:* parity finding)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder to write repro.py, REPORT.md and the two models into")
    p.add_argument("--cases-from", action="append", default=[], metavar="PATH", help="case module file or folder the report's cases come from")
    p.add_argument("--bisect", metavar="BISECT.json", help="the bisect.json 'passcheck bisect' wrote: REPORT.md names the first bad version from it")
    p.add_argument("--no-attribute", action="store_true", help="do not bisect onnxruntime transformers when the report holds no attribution")
    p.set_defaults(handler=handle)


def handle(args) -> int:
    import onnx

    from passcheck._versions import environment
    from passcheck.attribution.forms import form_models, ort_finding
    from passcheck.repro.bisected import first_bad
    from passcheck.repro.script import report_md, script

    f, out = ort_finding(args.report, args.finding, args.out, "repro")
    bisected = first_bad(args.bisect, f.id)  # a bad --bisect file fails before any work
    a, b = form_models(f, args.cases_from)
    attribution = list(f.attribution)
    if not attribution and not args.no_attribute:
        from passcheck.cli.attribute import attribute
        from passcheck.passes.isolation import IsolatedExecutor

        with IsolatedExecutor() as ex:
            attribution, note = attribute(f, ex, args.cases_from)
        print(f"attribution: {', '.join(attribution) or note}")
    text, how = script(f, a, b, attribution)
    if "import passcheck" in text or "from passcheck" in text:
        raise AssertionError("the reproducer must not import passcheck")
    out.mkdir(parents=True, exist_ok=True)
    (out / "repro.py").write_text(text, encoding="utf-8")
    onnx.save(a, str(out / "common.onnx"))
    onnx.save(b, str(out / "uncommon.onnx"))
    versions = {k: v for k, v in environment().items() if k in ("onnx", "onnxruntime", "numpy")}
    (out / "REPORT.md").write_text(report_md(f, how, attribution, versions, bisected), encoding="utf-8")
    print(f"wrote {out / 'repro.py'} ({', '.join(f'{k}: {v}' for k, v in how.items())}), {out / 'REPORT.md'}, "
          f"{out / 'common.onnx'} ({f.details.get('other_form')}), {out / 'uncommon.onnx'} ({f.form})")
    return 0
