"""``passcheck export DIR``: every form of the selected cases in the ONNX backend-test layout.

``DIR/<case id>/<form>/model.onnx`` and ``test_data_set_K/input_J.pb`` for binding K (the feeds
passcheck itself uses: the case's feed function or feeds synthesized with the same seed), plus
``output_J.pb`` from an unoptimized onnxruntime run (``ort:disabled``) when the form runs. The
runs go through the isolation worker (a form that crashes or hangs onnxruntime loses its outputs,
not the export), in process with ``--no-isolation``.
The files are TensorProto/SequenceProto/MapProto/OptionalProto messages named after the graph
input or output they hold (seed 001), so any ONNX backend-test runner can read them.
"""

from __future__ import annotations

from passcheck.cli._output import add_isolation_args


def add_parser(sub) -> None:
    p = sub.add_parser(
        "export",
        help="write every form of the selected cases as model.onnx + test_data_set_K (ONNX backend-test layout)",
    )
    p.add_argument("dir", metavar="DIR")
    p.add_argument(
        "--case",
        action="append",
        default=[],
        metavar="GLOB[:FORM]",
        help="only cases whose id or tag matches (repeatable); 'GLOB:FORMGLOB' writes only those forms",
    )
    p.add_argument(
        "--cases-from", action="append", default=[], metavar="PATH", help="also load case modules from a file or folder"
    )
    add_isolation_args(p)
    p.set_defaults(handler=handle)


def export_case(case, root, onnx_version: str | None, run_model=None, patterns=()) -> list[str]:
    """Write one case; returns the form folders written (none when the case is skipped here).

    ``patterns``: ``--case`` patterns; only the forms a ``GLOB:FORMGLOB`` among them names are written.

    ``run_model``: ``(model, feeds) → RunResult`` for the outputs (``IsolatedExecutor.run_model``);
    None runs onnxruntime in this process.
    """
    from pathlib import Path

    from passcheck.cases import form_wanted
    from passcheck.engine import feeds_for
    from passcheck.runtime import run_ort
    from passcheck.runtime.feed_files import write_data_set

    run_model = run_model or run_ort
    if case.skip_reason(onnx_version):
        return []
    forms = {name: case.build(name) for name in case.forms}
    first = forms["common"]
    feeds = feeds_for(first, case.id, case.bindings, feed_fn=case.feeds)  # the feeds ``passcheck run`` gives this case
    written = []
    for name, model in forms.items():
        if not form_wanted(case, name, patterns):
            continue
        d = Path(root) / case.id / name
        d.mkdir(parents=True, exist_ok=True)
        (d / "model.onnx").write_bytes(model.SerializeToString(deterministic=True))
        for k, f in enumerate(feeds):
            r = run_model(model, f)
            write_data_set(d, k, model, f, None if r.error else r.outputs)
        written.append(str(d))
    return written


def handle(args) -> int:
    from passcheck._versions import tool_version
    from passcheck.cases import registry
    from passcheck.cli._common import check_out_folder, load_cases_from
    from passcheck.cli._output import isolated, runner_of

    check_out_folder("export", args.dir)  # a file there is one line before any case is built
    load_cases_from(args.cases_from)
    cases = registry().select(args.case)
    n, skipped, unmatched = 0, {}, 0
    version = tool_version("onnx")
    with isolated(args) as executor:
        for c in cases:
            written = export_case(c, args.dir, version, runner_of(executor), args.case)
            if written:
                n += len(written)
            elif why := c.skip_reason(version):
                skipped[c.id] = why
            else:
                unmatched += 1  # a GLOB:FORMGLOB names no form of this case
    exported = len(cases) - len(skipped) - unmatched
    print(
        f"wrote {n} form(s) of {exported} case(s) to {args.dir}"
        + (f"; {unmatched} selected case(s) have no form the --case form glob matches" if unmatched else "")
        + (f"; skipped here: {_listed(skipped)}" if skipped else "")
    )
    return 0


#: Skipped cases named in export's summary line (the rest counted).
SHOWN = 10


def _listed(skipped: dict[str, str]) -> str:
    """``id (why), …`` for the first :data:`SHOWN` skipped cases, then how many in all."""
    shown = ", ".join(f"{c} ({why})" for c, why in list(skipped.items())[:SHOWN])
    return shown + (f", … ({len(skipped)} in all)" if len(skipped) > SHOWN else "")
