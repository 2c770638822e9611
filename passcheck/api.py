"""The Python API: run cases × passes, or check a user's model, and get records back.

Both front ends (the CLI and the pytest plugin) are thin layers over these functions.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from passcheck._versions import environment
from passcheck.records import CellResult, Finding

if TYPE_CHECKING:
    import onnx

    from passcheck.engine import Executor
    from passcheck.report.baseline import Known


@dataclasses.dataclass
class Report:
    """The results of one run in one environment.

    Attributes:
        cells: one record per (case, form, pass, env), in the order they finished.
        environments: env id → exact tool versions.
        unmatched_known: baseline entries that matched no finding (fixed, or not run).
    """

    cells: list[CellResult]
    environments: dict[str, dict[str, Any]]
    unmatched_known: list[Known] = dataclasses.field(default_factory=list)

    @property
    def findings(self) -> list[Finding]:
        return [f for c in self.cells for f in c.findings]

    @property
    def unexpected(self) -> list[Finding]:
        return [f for f in self.findings if not f.expected]

    @property
    def unchecked(self) -> list[CellResult]:
        """Cells without unexpected findings in which something was not checked (verdict ``unchecked``)."""
        return [c for c in self.cells if c.verdict == "unchecked"]

    @property
    def exit_code(self) -> int:
        """0 when nothing unexpected was found and everything was checked; 1 on an unexpected
        finding or an ``unchecked`` cell (a part passcheck could not judge, a pass the user named
        that did not run: never a pass)."""
        from passcheck.records import exit_code

        return exit_code(self.cells)

    def apply_baseline(self, path: str | Path) -> None:
        from passcheck.report import baseline

        self.unmatched_known = baseline.apply(self.cells, baseline.load(path))


def run(
    cases: Sequence[str] = (),
    passes: Sequence[str] = (),
    *,
    cases_from: Iterable[str | Path] = (),
    env: str = "local",
    executor: Executor | None = None,
    isolation: bool = True,
    timeout: float | None = None,
    on_cell: Callable[[CellResult], None] | None = None,
    skip_cells: Callable[[str, str, str], bool] | None = None,
    unknown_dim_param: str | None = None,
    save_run: str | Path | None = None,
    allow_unavailable: bool = False,
) -> Report:
    """Run the selected cases (``GLOB[:FORMGLOB]``: id/tag globs, optionally a form glob; all when
    empty) under the passes. A case runs all its forms (parity compares them with ``common``);
    only the cells of the selected forms are reported.

    Args:
        executor: how each pass and model run is done; when None, an
            :class:`~passcheck.passes.isolation.IsolatedExecutor` leased for this call from the process's
            pool (:mod:`passcheck.execution.pool`: kept for the next call; a crashing or hanging pass costs its
            cell), or in process with ``isolation=False``.
        timeout: seconds one pass or model run may take in that executor (None: 300).
        on_cell: called with each cell as soon as it is final (streaming).
        skip_cells: ``(case, form, pass_id) → True`` for cells already done (resume); a case
            whose cells are all done is not even built.
        unknown_dim_param: regex of dim_param names that mean "unknown dim" (they assert nothing;
            see :func:`passcheck.oracles.shape_annotations.check`).
        save_run: a folder to save the judged observations in (``passcheck report --rejudge``).
        allow_unavailable: a pass of ``passes`` that does not run on a form (outside what its tool
            supports, beyond this onnxruntime) is ``n/a`` like a default pass; else that cell is
            ``unchecked`` (:func:`passcheck.records.require_run`) and fails the run.

    Raises:
        UnknownIdError: a case glob or pass id matches nothing.
        PassUnavailableError: a pass given in ``passes`` cannot run here (e.g. its command is not found).
        PasscheckError: a user case module fails to import.
    """
    from passcheck.cases import form_wanted, load_path, registry
    from passcheck.cases.scope import user_modules_scoped
    from passcheck.session import Session

    with user_modules_scoped():  # this run's --cases-from modules are taken back when it ends
        cases_from = list(cases_from)
        for p in cases_from:
            load_path(p)
        selected = registry().select(cases)
        by_id = {c.id: c for c in selected}

        def wanted(cell: CellResult) -> bool:
            return cell.case not in by_id or form_wanted(by_id[cell.case], cell.form, cases)

        passes = list(dict.fromkeys(passes))  # a pass given twice runs (and counts) once
        require_available(passes)  # fail on a bad id or a missing tool before any work
        with Session(
            env=env,
            executor=executor,
            isolation=isolation,
            timeout=timeout,
            preload=cases_from,
            warm=_warm(passes),
            on_cell=(lambda cell: on_cell(cell) if wanted(cell) else None) if on_cell else None,
            skip_cells=skip_cells,
            save_run=save_run,
        ) as s:
            cells = s.run_cases(
                selected,
                passes,
                cases_from=cases_from,
                unknown_dim_param=unknown_dim_param,
                required=() if allow_unavailable else passes,
            )
        return Report([c for c in cells if wanted(c)], {env: environment()})


def _warm(passes: Sequence[str]) -> tuple[str, ...]:
    """The tool modules the isolation worker's template imports ahead for ``passes`` (the default
    passes when none: a case's own passes are not known yet), as the CLI's sessions do."""
    from passcheck.passes import DEFAULT_PASSES, imports_of

    return imports_of(passes or DEFAULT_PASSES)


def require_available(passes: Iterable[str]) -> None:
    """Resolve every pass id and refuse one that cannot run here at all.

    Raises:
        UnknownIdError: an unknown pass id.
        PassUnavailableError: the pass's tool is missing (a ``cmd:`` command not found in this
            interpreter's scripts folder nor on PATH, a package not installed).
    """
    from passcheck.errors import PassUnavailableError
    from passcheck.passes import get_pass

    for p in passes:
        if p != "input" and (why := get_pass(p).unavailable_reason()):
            raise PassUnavailableError(f"pass {p!r} cannot run here: {why}")


def check_model(
    model: onnx.ModelProto | str | Path,
    passes: Sequence[str] = (),
    *,
    bind: Mapping[str, int] | None = None,
    forms: Mapping[str, onnx.ModelProto] | None = None,
    feeds: Sequence[Mapping[str, Any]] | None = None,
    name: str | None = None,
    form_name: str = "common",
    env: str = "local",
    executor: Executor | None = None,
    isolation: bool = True,
    timeout: float | None = None,
    on_cell: Callable[[CellResult], None] | None = None,
    skip_cells: Callable[[str, str, str], bool] | None = None,
    repro: str = "",
    form_repro: Mapping[str, str] | None = None,
    unknown_dim_param: str | None = None,
    synthesize_feeds: bool = False,
    save_run: str | Path | None = None,
    allow_unavailable: bool = False,
) -> Report:
    """Run passes on one model (and optional extra equivalent ``forms``) with synthesized feeds,
    or, for a model path whose folder holds ``test_data_set_K/input_J.pb`` (the ONNX
    backend-test layout), with those inputs.

    Args:
        model: a ModelProto or a path to a .onnx file.
        bind: symbol → size overrides for both default bindings (every symbol to 2, then 3).
        forms: further forms of the same computation (e.g. mutants), compared with ``model``.
        feeds: one feed dict per run (input name → value) instead of synthesized feeds.
        form_name: the form name ``model`` is reported under.
        executor, isolation, timeout: as for :func:`run`.
        on_cell: called with each cell as soon as it is final (streaming).
        skip_cells: ``(case, form, pass_id) → True`` for cells already done (resume).
        repro: the command reproducing the run (``{pass}`` is filled in), recorded in findings.
        form_repro: form → the command reproducing that form alone (as ``repro``), recorded in
            its findings (and in parity findings of ``model`` against it).
        unknown_dim_param: regex of dim_param names that mean "unknown dim" (``\\?``, ``unk__\\d+``).
        synthesize_feeds: synthesize feeds even when the model's folder ships data sets
            (they are also skipped when ``feeds`` or ``bind`` is given).
        save_run, allow_unavailable: as for :func:`run`.

    Raises:
        ModelLoadError: the file cannot be read as a model, ``model`` is neither a ModelProto nor a path;
            the model's graph has no outputs.
        FeedError: a --bind for an unknown symbol, feeds that cannot be synthesized, or data
            sets beside the model that do not fit its inputs.
        UnknownIdError / PassUnavailableError: as for :func:`run`.
    """
    import onnx

    from passcheck.engine import Subject
    from passcheck.errors import ModelLoadError
    from passcheck.modelio import command_path, load_model, require_outputs, require_utf8
    from passcheck.runtime import default_bindings
    from passcheck.session import Session

    repro_path = None
    if isinstance(model, (str, os.PathLike)):
        p = repro_path = Path(model)
        name = name or (p.parent.name if p.stem == "model" and p.parent.name else p.stem)
        repro = repro or f"passcheck check {command_path(model)} --pass {{pass}}"
        model = load_model(model)
        if feeds is None and not bind and not synthesize_feeds:
            feeds = feeds_beside(p, model)
    elif not isinstance(model, onnx.ModelProto):
        raise ModelLoadError(
            f"model: expected an onnx.ModelProto or the path of a .onnx file, got {type(model).__name__}"
        )
    where = str(repro_path or name or model.graph.name or "model")
    require_outputs(model, where)
    require_utf8(model, where)
    name = name or model.graph.name or "model"
    passes = list(dict.fromkeys(passes))  # a pass given twice runs (and counts) once
    require_available(passes)
    subject = Subject(
        id=subject_id(name),
        forms={form_name: model, **dict(forms or {})},
        bindings=default_bindings(model, bind),
        repro=repro or "passcheck check MODEL.onnx --pass {pass}",
        form_repro=dict(form_repro or {}),
        feed_sets=list(feeds) if feeds else None,
        unknown_dim_param=unknown_dim_param,
    )
    with Session(
        env=env,
        executor=executor,
        isolation=isolation,
        timeout=timeout,
        warm=_warm(passes),
        on_cell=on_cell,
        skip_cells=skip_cells,
        save_run=save_run,
    ) as s:
        cells = s.evaluate(subject, passes, required=() if allow_unavailable else passes)
    return Report(cells, {env: environment()})


def close_workers() -> int:
    """Close the isolation workers this process keeps idle between checks.

    :func:`check_model`, :func:`run` and the pytest plugin keep one isolation worker per key
    (:mod:`passcheck.execution.pool`) after a call, so the next call in the same process skips the
    worker's start-up; they are closed at interpreter exit. A long-lived process (a server, a
    notebook) that is done checking calls this to free them now; the next check starts a new one.

    Returns:
        how many idle workers were closed (0 when none was kept). Never raises for a worker that
        already died.
    """
    from passcheck.execution import pool

    n = pool.idle_count()
    pool.clear()
    return n


def feeds_beside(model_path: str | Path, model: onnx.ModelProto) -> list[dict[str, Any]] | None:
    """The feeds shipped next to ``model_path`` (``test_data_set_K/input_J.pb``), or None.

    Raises:
        FeedError: the data sets exist but do not fit the model's inputs (the message says
            how to synthesize feeds instead).
    """
    from passcheck.errors import FeedError
    from passcheck.runtime.feed_files import data_sets_beside, read_feeds

    found = data_sets_beside(model_path)
    if found is None:
        return None
    try:
        return read_feeds(found[0], model)
    except FeedError as exc:
        raise FeedError(
            f"{exc} (the data sets beside the model are used by default; synthesize feeds instead with "
            "--synthesize-feeds)"
        ) from None


def subject_id(name: str) -> str:
    """The id a user model is reported under: ``model/<name>`` (lower case, safe characters)."""
    import re

    return "model/" + (re.sub(r"[^a-z0-9_.+-]+", "-", name.lower()).strip("-") or "model")
