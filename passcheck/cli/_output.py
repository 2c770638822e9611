"""Finishing a run: baseline, renderers, exit code (shared by run, check and friends)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from passcheck.api import Report
from passcheck.cli._common import check_outputs, positive
from passcheck.cli._common import console as console_


def finish(args, report: Report, *, title: str = "passcheck report") -> int:
    """Apply ``--baseline``, write every requested format, print the terminal report (on stderr
    when an output is ``-``, standard output).

    The files are written before the terminal report, and a reader that stops reading it
    (``passcheck run … | head``) changes neither them nor the exit code: both come from the run.
    """
    from passcheck.report import baseline, junit, markdown, terminal, write_report

    if getattr(args, "baseline", None):
        report.apply_baseline(args.baseline)
    to_stdout = check_outputs(args)
    if getattr(args, "json", None):
        write_report(args.json, report.cells, report.environments)
    if getattr(args, "junit", None):
        junit.write_junit(args.junit, report.cells, environments=report.environments)
    if getattr(args, "markdown", None):
        from passcheck.report.json_report import atomic_write

        atomic_write(args.markdown, markdown.render(report.cells, report.environments, title=title))
    if getattr(args, "write_baseline", None):
        from passcheck.report.json_report import atomic_write

        atomic_write(
            args.write_baseline,
            baseline.from_cells(report.cells, previous=baseline.previous_entries(args.write_baseline)),
        )
    try:
        console = console_(stderr=to_stdout)
        terminal.render(report.cells, console, show_grid=not getattr(args, "quiet", False))
        for k in report.unmatched_known:
            console.print(f"baseline entry matched nothing (fixed, or not run): {k.id} — {k.reason}")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped: the files are written, the verdict stands
        terminal.drop_closed_pipe(sys.stderr if to_stdout else sys.stdout)
    return report.exit_code


def preflight(args) -> bool:
    """Check the output paths and read ``--baseline`` before any work (exit 2 on either).

    Returns:
        True when an output is ``-`` (see :func:`passcheck.cli._common.check_outputs`).
    """
    to_stdout = check_outputs(args)
    if getattr(args, "baseline", None):
        from passcheck.report import baseline

        baseline.load(args.baseline)
    return to_stdout


def out_path(text: str | None) -> Path | None:
    return Path(text) if text else None


def add_reliability_args(p) -> None:
    """``--timeout``, ``--memory-limit``, ``--no-isolation``, ``--stream``, ``--resume``."""
    g = add_isolation_args(p, "isolation and resuming")
    g.add_argument("--stream", metavar="FILE", help="append each result to FILE as a JSON line the moment it is final")
    g.add_argument(
        "--resume",
        action="store_true",
        help="with --stream: keep the results already in FILE and run only the missing cells",
    )
    g.add_argument(
        "--save-run",
        metavar="DIR",
        help="save what the oracles judged (runs, pass outputs) in DIR; "
        "'passcheck report --rejudge DIR' judges it again without running anything",
    )


def add_isolation_args(p, title: str = "isolation"):
    """``--timeout``, ``--memory-limit``, ``--no-isolation``; returns the argument group."""
    from passcheck.passes.isolation import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT

    g = p.add_argument_group(title)
    g.add_argument(
        "--timeout",
        type=positive(float),
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help="wall time one pass may take on one form before it is killed (status timeout; "
        f"default {DEFAULT_TIMEOUT:g})",
    )
    g.add_argument(
        "--memory-limit",
        type=positive(int),
        default=DEFAULT_MEMORY_MB,
        metavar="MB",
        help=f"address-space cap of the process running a pass (status out-of-memory; default {DEFAULT_MEMORY_MB})",
    )
    g.add_argument(
        "--no-isolation",
        action="store_true",
        help="run passes and models inside passcheck's own process (faster; a crash then ends the run, no limits)",
    )
    return g


def isolated(args, preload=()):
    """Context manager: the executor for ``args`` (see :func:`add_isolation_args`), closed on exit."""
    return session_for(args, preload, save=False).executor_context()


def session_for(args, preload=(), *, save: bool = True):
    """A :class:`passcheck.session.Session` with the executor ``args`` ask for (see
    :func:`add_isolation_args`) and their ``--save-run``; entering starts it, leaving closes it.
    A command with ``--pass`` has its worker's template import those passes' tools ahead (the
    default passes' without one: ``run``, ``check``)."""
    from passcheck.passes import DEFAULT_PASSES, imports_of
    from passcheck.session import Session

    if getattr(args, "no_isolation", False):
        from passcheck.passes import command

        command.DEFAULT_TIMEOUT = args.timeout  # in process only commands can be bounded: they still get --timeout
    return Session(
        isolation=not getattr(args, "no_isolation", False),
        timeout=getattr(args, "timeout", None),
        memory_mb=getattr(args, "memory_limit", None),
        preload=preload,
        warm=imports_of(args.passes or DEFAULT_PASSES) if hasattr(args, "passes") else (),
        save_run=getattr(args, "save_run", None) if save else None,
    )


def runner_of(executor):
    """How ``executor`` runs a model (its worker's ``run_model``), None for in process."""
    return getattr(executor, "run_model", None)


class RunSession:
    """Executor, streaming and resume for one CLI run (use as a context manager).

    Inside the ``with``: pass :meth:`options` (executor, streaming, resume, saved run) to
    :func:`passcheck.api.run` / :func:`~passcheck.api.check_model`, then :meth:`complete` the report.
    ``planned`` cells are counted on stderr as they arrive (:mod:`passcheck.progress`).
    ``session``: an entered :class:`~passcheck.session.Session` to run with (its worker already
    started, e.g. by a pre-check), left open; by default one for ``args`` is started and closed.
    On an interrupt (KeyboardInterrupt: Ctrl-C, or SIGTERM under the CLI) the cells so far, and the pass
    outputs produced but not judged yet as ``unchecked`` cells, are written as partial ``--json``
    (``"partial": true``), ``--junit`` (a failing ``interrupted`` testcase) and ``--markdown`` (headed by
    the partial note) reports before the CLI exits 130.

    Raises:
        PasscheckError: an output path that cannot be written, an unreadable ``--baseline``,
            ``--resume`` without ``--stream``, a stream of another selection or environment, or
            an existing stream without ``--resume``.
    """

    def __init__(
        self, args, command: str, selection: dict, *, env: str = "local", preload=(), planned: int = 0, session=None
    ):
        import contextlib

        preflight(args)
        self.args, self.env = args, env
        self.progress = None
        # api.run / check_model save the run (options()); a caller's entered ``session`` stays the caller's to close
        self._isolated = session_for(args, preload, save=False) if session is None else contextlib.nullcontext(session)
        self.session = self._isolated.__enter__()
        self.executor = self.session.executor
        self.previous: list = []
        self.new: list = []
        self._stream = None
        try:
            self._open_stream(command, selection)
        except BaseException:
            self._isolated.__exit__(None, None, None)
            raise
        from passcheck.cli._common import progress

        self.progress = progress(args, max(planned, len(self.previous)), "cells", done=len(self.previous))
        if hasattr(self.executor, "on_step"):  # the engine names each form, pass and step within a cell
            self.executor.on_step = self.progress.now

    def _open_stream(self, command: str, selection: dict) -> None:
        from passcheck.errors import PasscheckError
        from passcheck.report.json_report import Stream

        path = getattr(self.args, "stream", None)
        if not path:
            if getattr(self.args, "resume", False):
                raise PasscheckError("--resume needs --stream FILE (the stream of the run to complete)")
            return
        p = Path(path)
        stream = Stream(p)  # held from here: another run on this file is refused before it reads the state
        try:
            self._read_stream(stream, command, json.loads(json.dumps(selection, default=str)))
        except BaseException:
            stream.close()
            raise

    def _read_stream(self, stream, command: str, selection: dict) -> None:
        from passcheck._versions import environment
        from passcheck.errors import PasscheckError
        from passcheck.report.json_report import read_stream

        p = stream.path
        exists = p.stat().st_size > 0
        if exists and not self.args.resume:
            raise PasscheckError(
                f"--stream {p}: the file exists; add --resume to complete that run, or remove the file to start over"
            )
        if exists:
            state = read_stream(p)
            here = environment()
            if (
                state.header is None
                or state.header.get("command") != command
                or state.header.get("selection") != selection
            ):
                raise PasscheckError(
                    f"--resume {p}: that stream was written by a different command or selection "
                    f"({(state.header or {}).get('command')} {(state.header or {}).get('selection')}); "
                    "resume with the same arguments, or use a new --stream file"
                )
            if state.environments.get(self.env, here) != here:
                raise PasscheckError(
                    f"--resume {p}: the stream was written with other tool versions ({state.environments[self.env]}); "
                    "resume in the same environment, or use a new --stream file"
                )
            self.previous = state.cells
        self._stream = stream
        if not exists:
            self._stream.header(command, selection)
            self._stream.environment(self.env, environment())
        self._done = {c.key for c in self.previous}

    def on_cell(self, cell) -> None:
        from passcheck import interrupts

        with interrupts.deferred():  # in the partial report and in the stream, or in neither
            self.new.append(cell)
            if self._stream is not None:
                self._stream.cell(cell)
        self.progress.advance(cell.case, f"{cell.form} {cell.pass_id}")
        interrupts.check()  # an interrupt whose first KeyboardInterrupt was lost stops the run here

    def options(self) -> dict:
        """The keywords of :func:`passcheck.api.run` / :func:`~passcheck.api.check_model` this run sets."""
        return {
            "executor": self.executor,
            "on_cell": self.on_cell,
            "skip_cells": self.skip_cells if self.previous else None,  # resuming: a saved run continues too
            "save_run": getattr(self.args, "save_run", None),
            "allow_unavailable": getattr(self.args, "allow_unavailable", False),
        }

    def skip_cells(self, case: str, form: str, pass_id: str) -> bool:
        return self._stream is not None and (case, form, pass_id, self.env) in self._done

    @property
    def cells(self) -> list:
        return self.previous + self.new

    def complete(self, report: Report) -> Report:
        """The report with the resumed cells merged in (canonical order when streaming)."""
        if self._stream is None:
            return report
        from passcheck.report.json_report import canonical_order

        keys = {c.key for c in report.cells}
        report.cells = canonical_order([c for c in self.previous if c.key not in keys] + report.cells)
        return report

    def __enter__(self) -> RunSession:
        return self  # SIGTERM and SIGINT raise KeyboardInterrupt: passcheck.interrupts, set up by the CLI

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.progress is not None:
            self.progress.close()
        try:
            if exc_type is not None and issubclass(exc_type, KeyboardInterrupt):
                # pass outputs the engine had not judged: unchecked cells in the partial report, not in the
                # stream (not final: --resume runs them again)
                self._write_partial(getattr(exc, "unfinished", []))
        finally:
            self._isolated.__exit__(None, None, None)
            if self._stream is not None:
                self._stream.close()

    def _write_partial(self, unfinished=()) -> None:
        """The cells so far and ``unfinished`` ones (pass outputs the oracles had not judged, see
        :class:`passcheck.interrupts.Interrupted`) in every report format asked for, each marked as an
        interrupted run's."""
        from passcheck._versions import environment
        from passcheck.report import junit, markdown, write_report
        from passcheck.report.json_report import atomic_write, canonical_order
        from passcheck.report.partial import PARTIAL, markdown_note

        cells, envs = canonical_order(self.cells + list(unfinished)), {self.env: environment()}
        if getattr(self.args, "json", None):
            write_report(self.args.json, cells, envs, partial=True)
        if getattr(self.args, "junit", None):
            junit.write_junit(self.args.junit, cells, partial=PARTIAL, environments=envs)
        if getattr(self.args, "markdown", None):
            atomic_write(self.args.markdown, markdown_note(markdown.render(cells, envs)))
        if "-" not in (getattr(self.args, "json", None), getattr(self.args, "junit", None)):
            from passcheck.report import terminal

            terminal.render(cells, show_grid=False)  # what was judged before the interrupt, then the note
            print(f"PARTIAL: {PARTIAL}", flush=True)
