"""``passcheck reduce REPORT.json --finding ID --out DIR``: the smallest pair of forms that still shows a finding.

The finding comes from a stored report, or from a run of ``compare A B`` / ``check MODEL
--mutations`` at one ``--pass`` (``--compare`` / ``--check``), whose report is kept as
``DIR/report.json``.

Delta debugging over nodes (see :mod:`passcheck.reduce.pair`), for ``ort:*`` parity findings:
both cut forms stay valid (onnx checker) and equal (same outputs on synthesized feeds), and the
optimizer still treats them differently. Writes ``DIR/common.onnx``, ``DIR/uncommon.onnx``,
``DIR/reduced_<case>_<form>_<pass>.py`` (a case module for ``--cases-from``, case ``reduced/<case>-<form>-<pass>``) and ``DIR/reduce-state.json``. Bounded by
``--budget`` seconds; the state file records the best node set after every step, so a run cut
short (budget, Ctrl-C) continues with ``--resume``.
"""

from __future__ import annotations

import sys


def add_parser(sub) -> None:
    from passcheck.cli._common import positive

    p = sub.add_parser("reduce", help="shrink an ort:* parity finding's two forms to a minimal pair (delta debugging over nodes)")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("report", metavar="REPORT.json", nargs="?", help="a stored report holding the finding")
    src.add_argument("--compare", nargs=2, metavar=("A.onnx", "B.onnx"), help="run 'passcheck compare A B --pass ID' first and reduce its finding")
    src.add_argument("--check", metavar="MODEL.onnx", help="run 'passcheck check MODEL --mutations --form REWRITE --pass ID' first and reduce its finding")
    p.add_argument("--pass", dest="passes", action="append", default=[], metavar="ID", help="with --compare/--check: the ort:* pass (one)")
    p.add_argument("--form", action="append", default=[], metavar="REWRITE", help="with --check: the rewrite ids to check (repeatable)")
    p.add_argument("--finding", metavar="ID", help="the finding's id (default: the report's only unexpected ort:* parity finding)")
    p.add_argument("--out", required=True, metavar="DIR", help="folder for common.onnx, uncommon.onnx, the case module and reduce-state.json")
    p.add_argument("--budget", type=positive(float), default=120.0, metavar="SECONDS", help="time bound (default: %(default)s)")
    p.add_argument("--resume", action="store_true", help="start from the node set DIR/reduce-state.json recorded for this finding")
    p.add_argument("--cases-from", action="append", default=[], metavar="PATH", help="case module file or folder the report's cases come from")
    p.set_defaults(handler=handle)


def _report(args) -> str:
    """The report to read: REPORT.json, or the one a compare/check run writes into --out first.

    Raises:
        PasscheckError: bad --pass/--form use, or the run failed (its own message is on stderr).
    """
    from pathlib import Path

    from passcheck.cli import main
    from passcheck.errors import PasscheckError

    if args.report:
        if args.passes or args.form:
            raise PasscheckError("--pass and --form go with --compare or --check; a report's finding already names its pass")
        return args.report
    if len(args.passes) != 1:
        raise PasscheckError("--compare/--check need exactly one --pass (an ort:* level)")
    if args.form and not args.check:
        raise PasscheckError("--form goes with --check")
    Path(args.out).mkdir(parents=True, exist_ok=True)
    report = str(Path(args.out) / "report.json")
    argv = (["compare", *args.compare] if args.compare else ["check", args.check, "--mutations", *[x for f in args.form for x in ("--form", f)]])
    code = main([*argv, "--pass", args.passes[0], "--json", report, "-q"])
    if code not in (0, 1):
        raise PasscheckError(f"'passcheck {' '.join(argv)}' ended with exit code {code}: nothing to reduce")
    return report


def handle(args) -> int:
    import json
    import time
    import onnx

    from passcheck.attribution.forms import form_models, ort_finding
    from passcheck.errors import PasscheckError
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.reduce.case_module import case_module, case_slug
    from passcheck.reduce.pair import PairReducer
    from passcheck.report.json_report import atomic_write

    start_time = time.monotonic()
    deadline = start_time + args.budget
    f, out = ort_finding(_report(args), args.finding, args.out, "reduce")
    out.mkdir(parents=True, exist_ok=True)
    state_path = out / "reduce-state.json"
    start = None
    if args.resume and state_path.is_file():
        state = json.loads(state_path.read_text(encoding="utf-8"))
        if state.get("finding") != f.id:
            raise PasscheckError(f"{state_path} records finding {state.get('finding')!r}, not {f.id!r}; use another --out")
        if state.get("finished"):
            print(f"already reduced to {len(state['keep'])} nodes ({state_path})", file=sys.stderr)
        start = state["keep"]
    a, b = form_models(f, args.cases_from)

    def save(keep, finished=False):
        atomic_write(state_path, json.dumps({"finding": f.id, "keep": list(keep), "finished": finished}, indent=1) + "\n")

    def smaller(keep):
        save(keep)
        print(f"passcheck reduce: {len(keep)} nodes ({reducer.tests} candidates tested, {time.monotonic() - start_time:.0f} s)", file=sys.stderr)

    with IsolatedExecutor() as ex:
        reducer = PairReducer(a, b, f.pass_id.split(":", 1)[1], f.details.get("kept_op_types") or [], ex)
        print(f"passcheck reduce: {len(reducer.keys)} nodes in each form; budget {args.budget:g} s", file=sys.stderr)
        red = reducer.reduce(deadline, start, f.details.get("kept_nodes") or [], smaller)
    save(red.keep, red.finished)
    onnx.save(red.a, str(out / "common.onnx"))
    onnx.save(red.b, str(out / "uncommon.onnx"))
    module = out / ("reduced_" + case_slug(f).replace("-", "_").replace(".", "_").replace("+", "_") + ".py")  # unique module name per finding
    module.write_text(case_module(f, red.a, red.b), encoding="utf-8")
    ops = ", ".join(n.op_type for n in red.b.graph.node)
    how = "1-minimal" if red.finished else "budget reached, not yet 1-minimal (--resume continues)"
    print(f"reduced {len(reducer.keys)} → {len(red.keep)} nodes ({ops}); {how}; {red.tests} candidates tested in "
          f"{time.monotonic() - start_time:.0f} s; wrote {out / 'common.onnx'}, {out / 'uncommon.onnx'}, {module}")
    return 0
