"""``passcheck annotations MODEL.onnx``: do the model's own shape annotations hold when it runs?

Seed 000 semantics via :mod:`passcheck.oracles.shape_annotations`, at least two runs (every input
symbol bound to 2, then 3, ``--bind`` to choose) or the runs given by ``--feeds``. Feeds that break
the input annotations (preconditions) are bad input: exit 2. Exit 1 when an assertion (value_info
or graph output annotation) is violated, or when an annotated value could not be observed by the
engine (it may be violated unseen; the reason is printed). Exit 0 when every annotation was
checked and holds, or was not produced in the run (a branch that never ran): nothing to check.
"""

from __future__ import annotations

from passcheck.cli._common import add_progress_arg, add_unknown_dim_arg, bind_arg, progress
from passcheck.cli._output import add_isolation_args


def add_parser(sub) -> None:
    p = sub.add_parser(
        "annotations",
        help="run a model and check that its shape annotations hold at run time",
        description="Run MODEL and check every type/shape annotation against the values of each run.",
    )
    p.add_argument("model", metavar="MODEL.onnx")
    p.add_argument(
        "--bind",
        action="append",
        type=bind_arg,
        default=[],
        metavar="SYM=N",
        help="size for a symbolic input dim (repeatable)",
    )
    p.add_argument(
        "--feeds",
        metavar="PATH",
        help="a .npz, or a folder in the ONNX backend-test layout (test_data_set_K/input_J.pb)",
    )
    p.add_argument(
        "--engine",
        choices=("auto", "ort", "reference"),
        default="auto",
        help="auto (default): onnxruntime for the main graph, the reference evaluator for values inside subgraphs and "
        "functions; ort: fast, main graph only (subgraph values not checked: exit 1); "
        "reference: onnx.reference.ReferenceEvaluator for every value",
    )
    add_unknown_dim_arg(p)
    p.add_argument(
        "--json",
        metavar="FILE",
        help="write every run's report as JSON ('-': standard output, the text report then goes to stderr)",
    )
    p.add_argument(
        "--markdown",
        metavar="FILE",
        help="write coverage, values not checked (with why) and violations as Markdown ('-': standard output)",
    )
    add_isolation_args(p)
    add_progress_arg(p, quiet=True)
    p.set_defaults(handler=handle)


def feed_sets(
    model, feeds_path: str | None, bind: dict[str, int], model_path: str = "model.onnx"
) -> list[tuple[str, dict]]:
    """(label, feeds) per run: read from ``feeds_path``, else synthesized (two bindings at least)
    exactly as ``passcheck check MODEL`` synthesizes them (same seeds and sizes).

    Raises:
        FeedError: unreadable feeds, --bind with --feeds, an unknown symbol, or inputs that cannot be synthesized.
    """
    from passcheck.api import subject_id
    from passcheck.engine import feeds_for
    from passcheck.errors import FeedError
    from passcheck.modelio import model_name as _name
    from passcheck.runtime import default_bindings
    from passcheck.runtime.feed_files import read_feeds

    if feeds_path:
        if bind:
            raise FeedError("--bind and --feeds cannot be combined: the feed files fix every size")
        return [(f"feeds {feeds_path} set {i}", f) for i, f in enumerate(read_feeds(feeds_path, model))]
    bindings = default_bindings(model, bind)
    labels = ["binding " + (", ".join(f"{k}={v}" for k, v in b.items()) or "(no symbols)") for b in bindings]
    return list(zip(labels, feeds_for(model, subject_id(_name(model_path)), bindings)))


def check_preconditions(model, feeds: dict, label: str) -> None:
    """Raise FeedError when ``feeds`` break the graph-input annotations (they are preconditions)."""
    from passcheck.errors import FeedError
    from passcheck.oracles.shape_annotations import check

    bad = [v for v in check(model, feeds).violations if v.role == "precondition"]
    if bad:
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise FeedError(f"{label}: feeds break the input annotations: {bad[0].message}{more}")


def observe_with(executor, model, feeds: dict, engine: str, label: str):
    """:func:`passcheck.runtime.observe.observe` in ``executor``'s worker (in process without one).

    Raises:
        RunFailed: the run failed, or killed the worker (a crash, or no result within the timeout).
    """
    from passcheck.errors import WorkerDied
    from passcheck.runtime.observe import RunFailed, observe

    if not hasattr(executor, "call"):
        return observe(model, feeds, engine)
    try:
        return executor.call(observe, model, feeds, engine)
    except WorkerDied as exc:
        raise RunFailed(f"{label}: {str(exc).splitlines()[0]}; the annotations could not be checked") from None


def handle(args) -> int:
    import functools
    import json
    import sys

    from passcheck.cli._common import bindings_from, check_outputs
    from passcheck.cli._output import isolated
    from passcheck.modelio import load_model
    from passcheck.oracles.shape_annotations import check
    from passcheck.report.json_report import atomic_write

    say = functools.partial(
        print, file=sys.stderr if check_outputs(args) else sys.stdout
    )  # --json -: JSON alone on stdout
    model = load_model(args.model)
    runs = feed_sets(model, args.feeds, bindings_from(args), args.model)
    for label, feeds in runs:
        check_preconditions(model, feeds, label)
    reports, total, blind = [], 0, {}
    say(f"{args.model}: engine {args.engine}, {len(runs)} run(s)")
    observations = []
    with isolated(args) as executor, progress(args, len(runs), "runs") as prog:
        for label, feeds in runs:
            observations.append(observe_with(executor, model, feeds, args.engine, label))
            prog.advance("", label)
    for (label, _feeds), (observed, unobservable) in zip(runs, observations):
        rep = check(model, observed, unobservable=unobservable, unknown_dim_param=args.unknown_dim_param)
        reports.append({"run": label, **rep.to_json()})
        total += len(rep.violations)
        for key, why in rep.unobservable.items():
            blind.setdefault(key, why)
        say(
            f"{label}: {rep.annotated} annotated, {rep.checked} checked, {len(rep.unobserved)} unobserved "
            f"({len(rep.unobservable)} by the engine), {len(rep.unchecked)} unchecked; binding {rep.binding or '{}'}"
        )
        for key, why in {**rep.unobserved, **rep.unchecked}.items():
            say(f"  not checked  {key}: {why}")
        for v in rep.violations:
            say(f"  VIOLATED     [{v.role}] {v.rule}: {v.message}")
    if args.json:
        atomic_write(
            args.json,
            json.dumps(
                {
                    "model": args.model,
                    "engine": args.engine,
                    "unknown_dim_param": args.unknown_dim_param,
                    "unchecked": blind,
                    "runs": reports,
                },
                indent=2,
                default=str,
            )
            + "\n",
        )
    if args.markdown:
        atomic_write(args.markdown, _markdown(args.model, args.engine, reports))
    if total:
        say(
            f"{total} violation(s)"
            + (f"; {len(blind)} annotated value(s) the engine could not observe" if blind else "")
        )
    elif blind:
        say(
            f"no violation seen, but {len(blind)} annotated value(s) were not checked: "
            "the engine could not observe them "
            f"(first: {next(iter(blind))}: {next(iter(blind.values()))})"
        )
    else:
        say("every annotation was checked and holds (values not produced in a run have nothing to check)")
    return 1 if total or blind else 0


def _markdown(model: str, engine: str, reports: list[dict]) -> str:
    """The runs' reports (:meth:`AnnotationReport.to_json` plus ``run``) as Markdown."""
    from passcheck.report.markdown import _esc

    def esc(text) -> str:
        return _esc(str(text))

    out = [
        f"# passcheck annotations {model}",
        "",
        f"engine {engine}",
        "",
        "| run | annotated | checked | unobserved | of which unobservable by the engine | unchecked | violations |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in reports:
        c = r["coverage"]
        out.append(
            f"| {esc(r['run'])} | {c['annotated']} | {c['checked']} | {c['unobserved']} | {c['unobservable']} | "
            f"{c['unchecked']} | {len(r['violations'])} |"
        )
    for r in reports:
        rows = [f"- not checked `{esc(k)}`: {esc(v)}" for k, v in _not_checked(r)] + [
            f"- **violated** [{v['role']}] {v['rule']}: {esc(v['message'])}" for v in r["violations"]
        ]
        if rows:
            out += ["", f"## {esc(r['run'])}", "", *rows]
    return "\n".join(out) + "\n"


def _not_checked(report: dict):
    return {**report["unobserved"], **report["unchecked"]}.items()
