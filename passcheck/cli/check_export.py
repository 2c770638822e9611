"""``passcheck check-export FILE.py``: export a model defined in a Python file, judge the export
against its source, then run the passes on it (see :mod:`passcheck.exporters`)."""

from __future__ import annotations

import argparse
import re

from passcheck.cli._common import add_output_args, add_pass_args
from passcheck.cli._output import add_reliability_args

NAMES_HELP = (
    "FILE.py defines `model` (a fitted scikit-learn estimator or a torch.nn.Module) and `example_inputs` "
    "(sklearn: X [n, features]; torch: a tuple of tensors); optionally `exporter`, `dynamic` "
    "({input index: {axis: symbol}}) and `corrupt` (ModelProto → ModelProto applied to the export, to test the oracle)."
)


def dynamic_arg(text: str) -> tuple[int, int, str]:
    """Parse ``INPUT:AXIS=SYM`` (input index, axis, symbol name)."""
    m = re.fullmatch(r"\s*(\d+):(\d+)=([A-Za-z_][A-Za-z0-9_]*)\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"expected INPUT:AXIS=SYM (e.g. 0:0=batch), got {text!r}")
    return int(m.group(1)), int(m.group(2)), m.group(3)


def add_parser(sub) -> None:
    from passcheck.exporters import EXPORTERS

    p = sub.add_parser(
        "check-export",
        help="export a model (skl2onnx, torch.onnx.export), check the export against its source, then the passes on it",
        description="Export the model FILE.py defines, judge the exported model against the source framework "
        "at several bindings of its dynamic dims (the exporter oracle), then run every pass with "
        "--mutations on it. " + NAMES_HELP,
    )
    p.add_argument("file", metavar="FILE.py")
    p.add_argument(
        "--exporter", choices=list(EXPORTERS), help="default: the file's `exporter`, else guessed from the model"
    )
    p.add_argument(
        "--dynamic",
        action="append",
        type=dynamic_arg,
        default=[],
        metavar="INPUT:AXIS=SYM",
        help="a dynamic dim (repeatable); default: axis 0 of every input is `batch`",
    )
    p.add_argument("--static", action="store_true", help="export static shapes (judged at the example only)")
    p.add_argument("--no-mutations", action="store_true", help="run the passes on the export only, not on its rewrites")
    add_pass_args(p)
    add_output_args(p)
    add_reliability_args(p)
    p.set_defaults(handler=handle)


def load_definitions(path: str) -> dict:
    """The names FILE.py defines.

    Raises:
        PasscheckError: the file is missing, fails to run, or lacks ``model`` / ``example_inputs``.
    """
    import runpy
    from pathlib import Path

    from passcheck.errors import PasscheckError
    from passcheck.records import brief

    if not Path(path).is_file():
        raise PasscheckError(f"{path}: no such file; give a Python file defining `model` and `example_inputs`")
    try:
        ns = runpy.run_path(path, run_name="__passcheck_export__")
    except Exception as exc:  # noqa: BLE001 - the user's file: one line, exit 2
        hint = ""
        if isinstance(exc, ModuleNotFoundError) and exc.name == "torch":
            hint = (
                "; run check-export with the torch env's passcheck (python -m passcheck.exporters.torch_env "
                "--build prints where it is)"
            )
        raise PasscheckError(
            f"{path}: running the file failed: {type(exc).__name__}: {brief(str(exc))}{hint}"
        ) from None
    missing = [n for n in ("model", "example_inputs") if n not in ns]
    if missing:
        raise PasscheckError(f"{path}: defines no {' or '.join('`' + n + '`' for n in missing)}; {NAMES_HELP}")
    return ns


def handle(args) -> int:
    from passcheck.cli._output import RunSession, finish
    from passcheck.errors import PasscheckError
    from passcheck.exporters import check_export, get_exporter, guess_exporter
    from passcheck.modelio import command_path

    if args.static and args.dynamic:
        raise PasscheckError("--static and --dynamic cannot be combined")
    ns = load_definitions(args.file)
    exporter = args.exporter or ns.get("exporter") or guess_exporter(ns["model"])
    get_exporter(exporter)  # an unknown id or a missing framework: exit 2 before any work
    dynamic = ns.get("dynamic")
    if args.static:
        dynamic = {}
    elif args.dynamic:
        dynamic = {}
        for i, axis, sym in args.dynamic:
            dynamic.setdefault(i, {})[axis] = sym
    extra = (" --static" if args.static else "") + "".join(f" --dynamic {i}:{a}={s}" for i, a, s in args.dynamic)
    repro = f"passcheck check-export {command_path(args.file)} --exporter {exporter}{extra} --pass {{pass}}"
    selection = {
        "file": args.file,
        "exporter": exporter,
        "pass": args.passes,
        "dynamic": args.dynamic,
        "static": args.static,
    }
    from pathlib import Path

    with RunSession(args, "check-export", selection) as s:
        report = s.complete(
            check_export(
                ns["model"],
                ns["example_inputs"],
                exporter=exporter,
                dynamic=dynamic,
                passes=args.passes,
                mutations=not args.no_mutations,
                corrupt=ns.get("corrupt"),
                name=f"{Path(args.file).stem}-{exporter}",
                executor=s.executor,
                on_cell=s.on_cell,
                repro=repro,
            )
        )
    if report.bindings:
        print(
            f"exported with {exporter}; judged against the source at "
            + "; ".join(", ".join(f"{k}={v}" for k, v in b.items()) or "the example" for b in report.bindings)
        )
    else:
        print(f"{exporter} could not export the model: nothing else was checked")
    return finish(args, report, title=f"passcheck check-export {args.file}")
