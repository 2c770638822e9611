"""``passcheck reduce REPORT.json --finding ID --out DIR``: the smallest pair of forms that still shows a finding.

The finding comes from a stored report, or from a run of ``compare A B`` / ``check MODEL
--mutations`` at one ``--pass`` (``--compare`` / ``--check``), whose report is kept as
``DIR/report.json``.

Any finding (see :mod:`passcheck.reduce.pair`): a ``check --mutations`` finding's rewrite sites
first (delta debugging), then nodes, then shapes (axes of one size cut to 1), then initializer
values (zeros / ones); every candidate keeps
the finding's signature (form, pass, oracle, kind, the op types it names) with both forms valid and
equal. ``ort:basic|extended|all`` missed optimizations are judged by two onnxruntime sessions,
other findings (onnx shape inference, onnxscript, the version converter, ``cmd:`` passes …) by
running the pass through the engine. Writes ``DIR/common.onnx`` (none for a one-form finding), ``DIR/uncommon.onnx``,
``DIR/reduced_<case>_<form>_<pass>_<oracle>_<kind>.py`` (a case module for ``--cases-from``, case
``reduced/<case>-<form>-<pass>-<oracle>-<kind>``)
and ``DIR/reduce-state.json``. Bounded by
``--budget`` seconds; the state file records the best node set after every step, so a run cut
short (budget, Ctrl-C) continues with ``--resume``. An ``--out`` that holds a reduce-state.json is
refused unless ``--resume`` continues that same finding (one folder, one reduction: nothing in it is
overwritten by another finding's).
"""

from __future__ import annotations

import sys

from passcheck.cli._common import AppendUnique


def add_parser(sub) -> None:
    from passcheck.cli._common import positive

    p = sub.add_parser(
        "reduce",
        help="shrink a finding's forms to a minimal pair (delta debugging over rewrite sites, nodes, "
        "initializer values)",
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("report", metavar="REPORT.json", nargs="?", help="a stored report holding the finding")
    src.add_argument(
        "--compare",
        nargs=2,
        metavar=("A.onnx", "B.onnx"),
        help="run 'passcheck compare A B --pass ID' first and reduce its finding",
    )
    src.add_argument(
        "--check",
        metavar="MODEL.onnx",
        help="run 'passcheck check MODEL --mutations --form REWRITE --pass ID' first and reduce its finding",
    )
    p.add_argument(
        "--pass",
        dest="passes",
        action=AppendUnique,
        default=[],
        metavar="ID",
        help="with --compare/--check: the pass (one)",
    )
    p.add_argument(
        "--form",
        action="append",
        default=[],
        metavar="REWRITE",
        help="with --check: the rewrite ids to check (repeatable)",
    )
    p.add_argument(
        "--finding", metavar="ID", help="the finding's id (default: the report's only unexpected ort:* parity finding)"
    )
    p.add_argument(
        "--out",
        required=True,
        metavar="DIR",
        help="folder for common.onnx, uncommon.onnx, the case module and reduce-state.json",
    )
    p.add_argument(
        "--budget", type=positive(float), default=120.0, metavar="SECONDS", help="time bound (default: %(default)s)"
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="start from the node set (and rewrite sites) DIR/reduce-state.json recorded for this finding",
    )
    p.add_argument(
        "--cases-from",
        action="append",
        default=[],
        metavar="PATH",
        help="case module file or folder the report's cases come from",
    )
    p.set_defaults(handler=handle)


def _report(args) -> str | None:
    """The report to read: REPORT.json, or the one a compare/check run writes into --out first;
    None when that run refused its input with exit code 2 (its ``passcheck: error:`` line is printed).

    Raises:
        PasscheckError: bad --pass/--form use, or the run failed (its own message is on stderr).
    """
    from pathlib import Path

    from passcheck.cli import main
    from passcheck.errors import PasscheckError

    if args.report:
        if args.passes or args.form:
            raise PasscheckError(
                "--pass and --form go with --compare or --check; a report's finding already names its pass"
            )
        return args.report
    if len(args.passes) != 1:
        raise PasscheckError("--compare/--check need exactly one --pass")
    if args.form and not args.check:
        raise PasscheckError("--form goes with --check")
    made = not Path(args.out).exists()
    Path(args.out).mkdir(parents=True, exist_ok=True)
    report = str(Path(args.out) / "report.json")
    argv = (
        ["compare", *args.compare]
        if args.compare
        else ["check", args.check, "--mutations", *[x for f in args.form for x in ("--form", f)]]
    )
    code = main([*argv, "--pass", args.passes[0], "--json", report, "-q"])
    if code == 2:  # bad input: the run said why on its one line already
        if made and not any(Path(args.out).iterdir()):
            Path(args.out).rmdir()  # no empty folder left behind by a refused run
        return None
    if code not in (0, 1):
        raise PasscheckError(f"'passcheck {' '.join(argv)}' ended with exit code {code}: nothing to reduce")
    return report


def handle(args) -> int:
    import json
    import time

    import onnx

    from passcheck.errors import PasscheckError
    from passcheck.passes.isolation import executor_for
    from passcheck.reduce.case_module import case_module, case_slug
    from passcheck.reduce.finding import case_settings, source_for
    from passcheck.reduce.pair import PairReducer
    from passcheck.reduce.predicates import predicate_for
    from passcheck.report.json_report import atomic_write

    start_time = time.monotonic()
    deadline = start_time + args.budget
    state = _state(args)
    report = _report(args)
    if report is None:
        return 2
    f, out = _finding(report, args.finding, args.out)
    out.mkdir(parents=True, exist_ok=True)
    state_path = out / "reduce-state.json"
    start, form = None, None
    if state is not None:
        if state.get("finding") != f.id:
            raise PasscheckError(
                f"{state_path} records finding {state.get('finding')!r}, not {f.id!r}; use another --out"
            )
        if state.get("finished"):
            print(f"already reduced to {len(state['keep'])} nodes ({state_path})", file=sys.stderr)
        start, form = state["keep"], state.get("form")

    def save(keep, form=None, finished=False, shrunk=(), simplified=None):
        doc = {
            "finding": f.id,
            "keep": list(keep),
            "form": form,
            "finished": finished,
            "shrunk": list(shrunk),
            "simplified": simplified or {},
        }
        atomic_write(state_path, json.dumps(doc, indent=1) + "\n")

    def smaller(keep, form):
        save(keep, form)
        print(
            f"passcheck reduce: {len(keep)} nodes"
            + (f", form {form}" if form else "")
            + f" ({reducer.tests} candidates tested, {time.monotonic() - start_time:.0f} s)",
            file=sys.stderr,
        )

    with executor_for(None) as ex:  # its worker holds the tools' block too (M311); kept for the next (M530)
        source, sites_before = source_for(f, args.cases_from, ex)
        reducer = PairReducer(source, predicate_for(f, ex, **case_settings(f, args.cases_from)), ex)
        print(
            f"passcheck reduce: {len(reducer.keys)} nodes"
            + (f", {sites_before} rewrite sites" if sites_before else "")
            + f"; {type(reducer.predicate).__name__} predicate; budget {args.budget:g} s",
            file=sys.stderr,
        )
        red = reducer.reduce(deadline, start, form, smaller)
    if red.tool_deaths or red.tool_skips:  # candidates dropped because a tool died on them: said, never silent
        print(
            f"passcheck reduce: onnx's tools died on {len(red.tool_deaths)} candidates in the isolation worker"
            + (f" (first: {red.tool_deaths[0]})" if red.tool_deaths else "")
            + f"; {len(red.tool_skips)} calls not made, no restart",
            file=sys.stderr,
        )
    save(red.keep, red.form, red.finished, red.shrunk, red.simplified)
    if red.a is not None:
        onnx.save(red.a, str(out / "common.onnx"))
    else:
        (out / "common.onnx").unlink(missing_ok=True)  # a one-form finding: no stale pair beside it
    onnx.save(red.b, str(out / "uncommon.onnx"))
    module = out / (
        "reduced_" + case_slug(f).replace("-", "_").replace(".", "_").replace("+", "_") + ".py"
    )  # unique module name per finding
    module.write_text(case_module(f, red.a, red.b), encoding="utf-8")
    ops = ", ".join(n.op_type for n in red.b.graph.node)
    how = "1-minimal" if red.finished else "budget reached, not yet 1-minimal (--resume continues)"
    sites = f"; rewrite sites {sites_before} → {_site_count(red.form)} ({red.form})" if sites_before else ""
    shrunk = f"; axes of size {', '.join(map(str, red.shrunk))} cut to 1" if red.shrunk else ""
    fills = (
        f"; initializers as fills: {', '.join(f'{k}={v}' for k, v in red.simplified.items())}" if red.simplified else ""
    )
    wrote = ", ".join(
        str(p) for p in ([out / "common.onnx"] if red.a is not None else []) + [out / "uncommon.onnx", module]
    )
    print(
        f"reduced {len(reducer.keys)} → {len(red.keep)} nodes ({ops}); {how}{sites}{shrunk}{fills}; "
        f"{red.tests} candidates tested in "
        f"{time.monotonic() - start_time:.0f} s; wrote {wrote}"
    )
    return 0


def _state(args) -> dict | None:
    """The reduce-state.json in --out to resume (None: no state there). Read before anything is
    written, so an --out holding another reduction is never overwritten.

    Raises:
        PasscheckError: a state there without --resume, an unreadable one, or (--finding given)
            one recording another finding.
    """
    import json
    from pathlib import Path

    from passcheck.errors import PasscheckError

    path = Path(args.out) / "reduce-state.json"
    if not path.is_file():
        return None
    if not args.resume:
        raise PasscheckError(
            f"--out {args.out}: holds a reduction already ({path}); continue it with --resume, or choose another folder"
        )
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
        state["keep"]  # noqa: B018 - a state file must name its node set
    except (ValueError, KeyError, TypeError) as exc:
        raise PasscheckError(
            f"{path}: not a reduce-state.json ({type(exc).__name__}: {exc}); remove it or use another --out"
        ) from None
    if args.finding and state.get("finding") != args.finding:
        raise PasscheckError(
            f"{path} records finding {state.get('finding')!r}, not {args.finding!r}; use another --out"
        )
    return state


def _finding(report, finding_id, out):
    """(the finding to reduce, the output folder): ``finding_id``, else the report's only
    unexpected ``ort:*`` missed-optimization parity finding.

    Raises:
        PasscheckError: an unreadable report, no such finding, or ``out`` an existing file.
    """
    from pathlib import Path

    from passcheck.attribution.forms import find
    from passcheck.cli._common import report_file
    from passcheck.errors import PasscheckError
    from passcheck.report.json_report import read_report

    cells, _ = read_report(report_file(report))
    f = find(cells, finding_id) if finding_id else find(cells, None, pass_prefix="ort:", kinds=("missed-optimization",))
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise PasscheckError(f"--out {out}: exists and is not a folder")
    return f, out


def _site_count(form: str) -> int | str:
    """Sites a narrowed spelling names (``all`` for a part left at every site)."""
    from passcheck.mutations import forms as hforms

    parts = hforms.parts(form)
    return "all" if any(s is None for _r, s in parts) else len(parts)
