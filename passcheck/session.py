"""One run, orchestrated: the executor, the subjects, streaming and saving (every front door).

:func:`passcheck.api.run` / :func:`~passcheck.api.check_model`, the CLI (``run``, ``check``,
``compare``), :mod:`passcheck.testing`, the pytest plugin and the matrix worker all open a
:class:`Session` and hand it subjects; it owns the executor's lifetime (an isolated worker unless
one is given), maps resume filters and streaming callbacks to each subject, and writes the saved
run (``--save-run``). The engine (:func:`passcheck.engine.evaluate`) does the work per subject.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from passcheck.cases import Case
    from passcheck.engine import Executor, Subject
    from passcheck.records import CellResult

#: ``(case, form, pass_id) → True`` for a cell already done (resume).
SkipCells = Callable[[str, str, str], bool]


class Session:
    """Context manager for one run in one environment.

    Args:
        env: the environment id recorded in every cell.
        executor: how passes and model runs are done; None: an
            :class:`~passcheck.passes.isolation.IsolatedExecutor` leased for the session from the
            process's pool (:mod:`passcheck.execution.pool`: a worker an earlier session of this process
            returned, else a new one; ``isolation=False``: in process).
        timeout / memory_mb: limits of that executor (seconds per pass or model run; MB).
        preload: case modules the isolated worker imports (their passes may be user code).
        warm: tool modules the isolated worker's template imports ahead
            (:func:`passcheck.passes.imports_of` the passes to run).
        on_cell: called with each cell as soon as it is final (streaming).
        skip_cells: cells already done (resume); a case whose cells are all done is not built.
        save_run: folder to save every judged group in (``passcheck report --rejudge`` reads it); with
            ``skip_cells``, this run continues the run saved last there (rejudged as one).

    Raises:
        PasscheckError: ``save_run`` cannot be written.
    """

    def __init__(
        self,
        *,
        env: str = "local",
        executor: Executor | None = None,
        isolation: bool = True,
        timeout: float | None = None,
        memory_mb: int | None = None,
        preload: Sequence[str | Path] = (),
        warm: Sequence[str] = (),
        on_cell: Callable[[CellResult], None] | None = None,
        skip_cells: SkipCells | None = None,
        save_run: str | Path | None = None,
    ):
        self.env, self.on_cell, self.skip_cells = env, on_cell, skip_cells
        self._limits = {
            "isolation": isolation,
            "timeout": timeout,
            "preload": preload,
            "warm": warm,
            **({"memory_mb": memory_mb} if memory_mb is not None else {}),
        }
        self._given = executor
        self._stack = contextlib.ExitStack()
        self.executor: Any = None
        self._save_run = save_run
        self.recorder = None

    def __enter__(self) -> Session:
        from passcheck.passes.isolation import executor_for

        try:
            if self._save_run:
                from passcheck.saved_runs import Recorder

                # with skip_cells (resume) the run continues the one saved last there
                self.recorder = Recorder(self._save_run, self.env, continues=self.skip_cells is not None)
                self._stack.callback(self.recorder.close)
            self.executor = self._stack.enter_context(executor_for(self._given, **self._limits))
            if self._given is None and (start := getattr(self.executor, "start", None)) is not None:
                start()  # its start-up overlaps the caller's until the first job (Worker.start)
        except BaseException:
            self._stack.close()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stack.close()

    @contextlib.contextmanager
    def executor_context(self):
        """Context manager yielding just the started executor (for runs outside the engine)."""
        with self as s:
            yield s.executor

    def evaluate(
        self,
        subject: Subject,
        passes: Sequence[str] = (),
        *,
        check_input: bool = True,
        executor: Executor | None = None,
        required: Collection[str] = (),
    ) -> list[CellResult]:
        """Every cell of ``subject`` under ``passes`` (see :func:`passcheck.engine.evaluate`);
        ``executor`` wraps the session's for this subject (the matrix worker announces passes);
        ``required``: the pass ids the user named (their ``unavailable`` cells are ``unchecked``)."""
        from passcheck.engine import evaluate

        skip = (lambda pid, form, _s=subject.id: self.skip_cells(_s, form, pid)) if self.skip_cells else None
        return evaluate(
            subject,
            passes,
            env=self.env,
            executor=executor or self.executor,
            on_cell=self.on_cell,
            skip_cells=skip,
            check_input=check_input,
            record=self.recorder,
            required=required,
        )

    def run_cases(
        self,
        cases: Sequence[Case],
        passes: Sequence[str] = (),
        *,
        cases_from: Sequence[str | Path] = (),
        unknown_dim_param: str | None = None,
        required: Collection[str] = (),
    ) -> list[CellResult]:
        """Every cell of ``cases`` under ``passes`` (each case's own passes, else the defaults);
        ``required`` as :meth:`evaluate`."""
        from passcheck._versions import tool_version
        from passcheck.engine import INPUT, Subject
        from passcheck.passes import DEFAULT_PASSES

        version, where = tool_version("onnx"), [str(Path(p).resolve()) for p in cases_from]
        cells: list[CellResult] = []
        for case in cases:
            ids = [INPUT, *(list(passes) or list(case.passes) or DEFAULT_PASSES)]
            if self.skip_cells and all(self.skip_cells(case.id, f, p) for f in case.forms for p in ids):
                continue
            subject = Subject.from_case(case, version, where)
            subject.unknown_dim_param = unknown_dim_param
            cells += self.evaluate(subject, passes, required=required)
        return cells
