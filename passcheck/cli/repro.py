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

import shutil


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
    from pathlib import Path

    import onnx

    from passcheck._versions import environment
    from passcheck.errors import PasscheckError
    from passcheck.report.json_report import read_report
    from passcheck.repro.bisected import first_bad
    from passcheck.repro.plan import choose, is_ort_parity, verify
    from passcheck.repro.tools import package

    cells, _ = read_report(args.report)
    f, chosen = choose(cells, args.finding)
    if chosen:
        print(chosen)
    bisected = first_bad(args.bisect, f.id, package(f.pass_id))  # a bad --bisect file fails before any work
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise PasscheckError(f"--out {out}: exists and is not a folder")
    versions = {k: v for k, v in environment().items() if k in ("onnx", "onnxruntime", "numpy", "onnxscript")}
    text, models, md, how = (_ort_parity if is_ort_parity(f) else _generic)(f, args, versions, bisected)
    if "import passcheck" in text or "from passcheck" in text:
        raise AssertionError("the reproducer must not import passcheck")
    fresh = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "repro.py", out / "REPORT.md", *(out / n for n in models)]
    (out / "repro.py").write_text(text, encoding="utf-8")
    for name, m in models.items():
        onnx.save(m, str(out / name))
    try:
        bug = verify(out / "repro.py")
    except PasscheckError:
        for p in written:
            p.unlink(missing_ok=True)
        if fresh:
            shutil.rmtree(out, ignore_errors=True)
        raise
    (out / "REPORT.md").write_text(md, encoding="utf-8")
    print(
        f"wrote {out / 'repro.py'} ({', '.join(f'{k}: {v}' for k, v in how.items())}), {out / 'REPORT.md'}, "
        + ", ".join(str(out / n) for n in models)
    )
    print(f"checked here: exit 1, {bug}")
    return 0


def _ort_parity(f, args, versions, bisected):
    from passcheck.attribution.forms import form_models
    from passcheck.repro.script import report_md, script

    a, b = form_models(f, args.cases_from)
    attribution = list(f.attribution)
    if not attribution and not args.no_attribute:
        from passcheck.cli.attribute import attribute
        from passcheck.passes.isolation import IsolatedExecutor

        with IsolatedExecutor() as ex:
            attribution, note = attribute(f, ex, args.cases_from)
        print(f"attribution: {', '.join(attribution) or note}")
    text, how = script(f, a, b, attribution)
    ort_versions = {k: v for k, v in versions.items() if k != "onnxscript"}
    return text, {"common.onnx": a, "uncommon.onnx": b}, report_md(f, how, attribution, ort_versions, bisected), how


def _generic(f, args, versions, bisected):
    from passcheck.attribution.forms import form_model
    from passcheck.errors import PasscheckError
    from passcheck.repro import generic
    from passcheck.repro.claims import claim
    from passcheck.repro.plan import case_feeds
    from passcheck.repro.tools import tool_call

    b = form_model(f, f.form, args.cases_from)
    c = claim(f)
    a = form_model(f, f.details["other_form"], args.cases_from) if c.two_forms else None
    call = tool_call(f.pass_id, b)
    if call is None:
        raise PasscheckError(
            f"finding {f.id!r}: repro cannot script it faithfully: {f.pass_id} has no target opset for form {f.form!r}"
        )
    if a is not None and tool_call(f.pass_id, a) != call:
        raise PasscheckError(
            f"finding {f.id!r}: repro cannot script it faithfully: {f.pass_id} converts the two forms to different opsets"
        )
    feeds, rtol, atol = case_feeds(f, b, args.cases_from) if c.feeds else ([], None, None)
    c = claim(f, rtol, atol)
    text, how = generic.script(f, c, call, a, b, feeds)
    if "onnxscript" not in call.needs:
        versions = {k: v for k, v in versions.items() if k != "onnxscript"}
    models = {"common.onnx": a, "uncommon.onnx": b} if a is not None else {"form.onnx": b}
    return text, models, generic.report_md(f, c, call, how, versions, bisected), how
