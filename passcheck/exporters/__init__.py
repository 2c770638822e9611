"""Exporter validation: export a model, judge the export against its source, then run the passes on it.

:func:`check_export` exports ``source`` with one exporter (``sklearn``: skl2onnx; ``torch-dynamo``
and ``torchscript``: ``torch.onnx.export``), judges the exported model with the exporter oracle
(:mod:`passcheck.exporters.oracle`) at several bindings of its dynamic dims, then runs every pass
(default: every default pass) on it and on each verified uncommon-but-valid rewrite of it
(``check --mutations``). The framework is imported only by the exporter modules; the exported
model's runs and the passes go through passcheck's isolated executor.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from passcheck.api import Report
from passcheck.errors import PasscheckError, PasscheckInternalError
from passcheck.exporters._base import Dynamic, Exporter, default_dynamic

#: exporter id → (module, class name).
EXPORTERS = {
    "sklearn": ("passcheck.exporters.sklearn", "SklearnExporter"),
    "torch-dynamo": ("passcheck.exporters.torch", "DynamoExporter"),
    "torchscript": ("passcheck.exporters.torch", "TorchScriptExporter"),
}
EXPORT = "export"  # pass id of the cell holding the exporter oracle's findings


@dataclasses.dataclass
class ExportReport(Report):
    """A :class:`passcheck.api.Report` whose first cell (pass ``export``) holds the exporter oracle's
    findings; the other cells are the passes on the exported model and its rewrites.

    Attributes:
        exporter: the exporter id.
        model: the exported ``onnx.ModelProto`` (after ``corrupt``, when given).
        bindings: the bindings of the dynamic dims the export was judged at.
    """

    exporter: str = ""
    model: Any = None
    bindings: list[dict[str, int]] = dataclasses.field(default_factory=list)


def get_exporter(exporter_id: str) -> Exporter:
    """The exporter adapter for ``exporter_id``.

    Raises:
        PasscheckError: an unknown id, or the exporter's framework is not installed (the message
            names the extra to install).
    """
    if exporter_id not in EXPORTERS:
        raise PasscheckError(f"unknown exporter {exporter_id!r}; choose one of {', '.join(EXPORTERS)}")
    module, cls = EXPORTERS[exporter_id]
    extra = "sklearn" if exporter_id == "sklearn" else "torch"
    need = ("skl2onnx", "sklearn") if extra == "sklearn" else ("torch",)
    for name in need:
        if importlib.util.find_spec(name) is None:
            raise PasscheckError(
                f"exporter {exporter_id} needs {name}, which is not installed: pip install 'passcheck[{extra}]'"
            )
    return getattr(importlib.import_module(module), cls)()


def guess_exporter(source: Any) -> str:
    """``torch-dynamo`` for a ``torch.nn.Module``, ``sklearn`` for an object with ``fit``.

    Raises:
        PasscheckError: neither.
    """
    if any(c.__module__.startswith("torch.nn") for c in type(source).__mro__):
        return "torch-dynamo"
    if hasattr(source, "fit") and hasattr(source, "predict"):
        return "sklearn"
    raise PasscheckError(f"cannot tell which exporter fits a {type(source).__name__}; choose one with exporter=")


def bindings_for(example_inputs: Sequence[Any], dynamic: Dynamic) -> list[dict[str, int]]:
    """The example's own sizes, then each symbol at 1, size+1 and 2*size+1 (all symbols together)."""
    sizes: dict[str, int] = {}
    for i, axes in dynamic.items():
        for axis, sym in axes.items():
            sizes.setdefault(sym, int(example_inputs[i].shape[axis]))
    if not sizes:
        return [{}]
    return [
        dict(sizes),
        {s: 1 for s in sizes},
        {s: n + 1 for s, n in sizes.items()},
        {s: 2 * n + 1 for s, n in sizes.items()},
    ]


def check_export(
    source: Any,
    example_inputs: Sequence[Any] | Any,
    *,
    exporter: str | None = None,
    dynamic: Dynamic | None = None,
    passes: Sequence[str] = (),
    mutations: bool = True,
    corrupt: Callable[[Any], Any] | None = None,
    name: str | None = None,
    rtol: float | None = None,
    atol: float | None = None,
    executor: Any = None,
    on_cell: Callable | None = None,
    repro: str = "",
) -> ExportReport:
    """Export ``source``, judge the export against it, then check the passes on the export.

    Args:
        source: a fitted scikit-learn estimator/pipeline or a ``torch.nn.Module``.
        example_inputs: sklearn: ``X [n, features]``; torch: a tuple of tensors (a single tensor is
            wrapped). Dynamic axes of each must have size >= 2 (torch specialises size 1).
        exporter: an id of :data:`EXPORTERS`; default guessed from ``source``.
        dynamic: input index → {axis → symbol}; default axis 0 of every input is ``batch``;
            ``{}`` exports static shapes (judged at the example only).
        passes: pass ids; default every default pass.
        mutations: also run the passes on each verified rewrite of the export (``check --mutations``).
        corrupt: ``ModelProto → ModelProto`` applied to the export (see :mod:`passcheck.exporters.planted`).
        rtol, atol: override the exported dtype's tolerance (:data:`passcheck.oracles.numeric.TOLERANCES`).
        executor: an IsolatedExecutor to use (one is made and closed otherwise).

    Raises:
        PasscheckError: unknown exporter or framework not installed (exit 2 in the CLI).
        Exception: whatever the exporter raises when it cannot export ``source``.
    """
    from passcheck._versions import environment
    from passcheck.api import check_model, subject_id
    from passcheck.engine import observed_run
    from passcheck.exporters import oracle
    from passcheck.oracles.validity import Checker
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.records import CellResult

    if not isinstance(example_inputs, (tuple, list)):
        example_inputs = (example_inputs,)
    eid = exporter or guess_exporter(source)
    adapter = get_exporter(eid)
    dyn = default_dynamic(len(example_inputs)) if dynamic is None else dynamic
    name = name or f"{type(source).__name__}-{eid}"
    sid = subject_id(name)
    try:
        model = adapter.export(source, example_inputs, dyn)
    except Exception as exc:  # noqa: BLE001 - the exporter failing on its own model is a finding
        from passcheck.records import CellResult, Finding, brief

        msg = f"{type(exc).__name__}: {exc}"
        cell = CellResult(
            sid,
            "common",
            EXPORT,
            "crashed",
            error=msg[-4000:],
            versions=adapter.versions(),
            findings=[
                Finding(
                    "rejected",
                    "exporter",
                    sid,
                    "common",
                    EXPORT,
                    f"{eid} cannot export this model: {brief(msg)}",
                    details={"error": msg[-4000:]},
                )
            ],
        )
        if on_cell:
            on_cell(cell)
        return ExportReport([cell], {"local": environment()}, exporter=eid, bindings=[])
    if corrupt is not None:
        model = corrupt(model)
    repro = repro or f"check_export({type(source).__name__}, exporter={eid!r})"
    bindings = bindings_for(example_inputs, dyn)
    own = executor is None
    executor = executor or IsolatedExecutor()
    try:

        def finding(kind, oracle_name, message, **details):
            from passcheck.records import Finding

            return Finding(
                kind,
                oracle_name,
                sid,
                "common",
                EXPORT,
                message,
                details=details,
                repro=repro.format(**{"pass": EXPORT}),
            )

        found: list = []
        runs: list[oracle.BindingRun] = []
        checker = Checker(executor)  # in the worker: a checker crash costs a verdict, not the run
        if err := checker(model):
            found.append(
                finding("invalid-model", oracle.NAME, f"the checker rejects the exported model: {err}", error=err)
            )
        else:
            for i, b in enumerate(bindings):
                inputs = adapter.inputs_at(example_inputs, dyn, b, seed=i) if i else list(example_inputs)
                feeds = adapter.feeds(model, inputs)
                run = observed_run(model, feeds, runner=executor.run_model)
                if (run.error or "").startswith("the run worker could not be started"):
                    raise PasscheckInternalError(run.error)  # passcheck's own failure, not the exporter's
                runs.append(oracle.BindingRun(b, feeds, adapter.run_source(source, inputs), run))
            found += oracle.judge(model, runs, finding, adapter.framework, rtol, atol)
        cell = CellResult(
            sid,
            "common",
            EXPORT,
            "changed",
            versions=adapter.versions(),
            nodes_after=len(model.graph.node),
            findings=found,
        )
        if on_cell:
            on_cell(cell)
        cells = [cell]
        report = None
        if runs and not any(r.run.error for r in runs):
            feeds_list = [r.feeds for r in runs]
            forms = {}
            if mutations:
                from passcheck.mutations.subject import verified_mutants

                forms = {
                    rid: m
                    for rid, (m, _a) in verified_mutants(
                        model, None, feeds_list, sid, executor.run_model, checker=checker
                    ).items()
                }
            report = check_model(
                model, passes, feeds=feeds_list, forms=forms, name=name, repro=repro, executor=executor, on_cell=on_cell
            )
            cells += report.cells
        envs = report.environments if report else {"local": environment()}
        return ExportReport(cells, envs, exporter=eid, model=model, bindings=bindings)
    finally:
        if own:
            executor.close()


__all__ = ["EXPORTERS", "ExportReport", "bindings_for", "check_export", "get_exporter", "guess_exporter"]
