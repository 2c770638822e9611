"""Progress of a long command on stderr: a rich bar (done / total, what runs now, elapsed time) when
stderr is a terminal, plain lines elsewhere (CI logs): the stage's plan and count with its first
step, then at most one every ``every`` seconds (``$PASSCHECK_PROGRESS_EVERY``, default 5; 0 prints
every step) and one when the stage completes; a step taking longer than ``every`` gets a line
``N/M cells, running for S s; now CASE: FORM PASS: STEP (step K since the last cell)`` every
``every`` seconds (what runs now, told by :meth:`Progress.now`: the engine names each form, pass
and step through its executor's ``on_step``). Used by every command that runs passes or
models (run, check, compare, mutate, annotations, matrix); ``--progress none`` or ``-q`` turns it off.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys
import threading
import time

MODES = ("auto", "bar", "lines", "none")
DEFAULT_EVERY = 5.0
#: The mode a :class:`Progress` constructed with ``bar=None`` takes: set by the CLI from its command's
#: ``--progress`` / ``-q`` (:func:`default_mode`), so progress of work no subcommand counts itself (a case family's
#: gate judged on the library's first load) is silenced or drawn as the command asked.
_DEFAULT_MODE: contextvars.ContextVar[str] = contextvars.ContextVar("passcheck_progress_mode", default="auto")


@contextlib.contextmanager
def default_mode(mode: str):
    """Within the block, ``Progress(bar=None)`` means ``mode`` (one of :data:`MODES`).

    Raises:
        ValueError: ``mode`` is not one of :data:`MODES`.
    """
    if mode not in MODES:
        raise ValueError(f"progress mode {mode!r}: expected one of {', '.join(MODES)}")
    token = _DEFAULT_MODE.set(mode)
    try:
        yield
    finally:
        _DEFAULT_MODE.reset(token)


def _every() -> float:
    try:
        return max(0.0, float(os.environ.get("PASSCHECK_PROGRESS_EVERY", DEFAULT_EVERY)))
    except ValueError:
        return DEFAULT_EVERY


class Progress:
    """Thread-safe progress display of one counted stage (more with :meth:`stage`).

    Args:
        total: steps planned (cells, mutants, runs); done: steps already finished (``--resume``).
        bar: ``"auto"`` (a bar when stderr is a terminal, else lines), ``"bar"``, ``"lines"``,
            ``"none"``; True / False / None mean bar / lines / auto.
        label: what the plain lines start with (``passcheck run``); unit: what a step is (``cells``).
        every: seconds between plain lines (default ``$PASSCHECK_PROGRESS_EVERY`` or 5).

    Use as a context manager, or call :meth:`close` (a bar must stop before the report prints).
    """

    def __init__(
        self,
        total: int | None,
        done: int = 0,
        bar: bool | str | None = None,
        *,
        label: str = "passcheck matrix",
        unit: str = "cells",
        every: float | None = None,
    ):
        mode = (
            {True: "bar", False: "lines", None: _DEFAULT_MODE.get()}.get(bar, bar) if not isinstance(bar, str) else bar
        )
        if mode not in MODES:
            raise ValueError(f"progress mode {bar!r}: expected one of {', '.join(MODES)}")
        if mode == "auto":
            mode = "bar" if sys.stderr.isatty() else "lines"
        self.mode, self.label, self.every = mode, label, _every() if every is None else every
        self._lock = threading.Lock()
        self._bar = None
        if mode == "bar":
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as Bar
            from rich.table import Column

            what = TextColumn(
                "{task.description}", table_column=Column(max_width=48, no_wrap=True, overflow="ellipsis")
            )
            self._bar = Bar(
                what,
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=False,
                redirect_stdout=False,
                redirect_stderr=False,
            )
            self._bar.start()
        self._task = None
        self._pending = ""
        self._now, self._steps = "", 0
        self._t0 = time.monotonic()
        self.stage(unit, total, done)
        self._stop = threading.Event()
        if mode == "lines" and self.every > 0:  # a long step still says it is alive
            threading.Thread(target=self._heartbeat, name="passcheck-progress", daemon=True).start()

    def _heartbeat(self) -> None:
        while not self._stop.wait(self.every / 2):
            with self._lock:
                now = time.monotonic()  # only while no step ends: steps that do end print their own lines
                if not self._stop.is_set() and now - self._last >= self.every and now - self._stepped >= self.every:
                    self._flush_pending()
                    self._last = time.monotonic()
                    # an uncounted stage says how many steps ended, once one has ('0 building mutants' says nothing)
                    count = (
                        f"{self.done}/{self.total} {self.unit}"
                        if self.total is not None
                        else f"{self.done} {self.unit}"
                        if self.done
                        else self.unit
                    )
                    last = self.unit.split()[0]
                    now = f"; now {self._now} (step {self._steps} since the last {last})" if self._now else ""
                    self._line(f"{count}, running for {time.monotonic() - self._t0:.0f} s{now}")

    def _flush_pending(self) -> None:
        if self._pending:
            self._line(self._pending)
            self._pending = ""

    def stage(self, unit: str, total: int | None, done: int = 0) -> None:
        """Start counting a new stage of ``total`` steps called ``unit`` (``mutants verified``);
        ``total`` None: a stage not counted (``building mutants``)."""
        with self._lock:
            self.unit, self.total, self.done = unit, total, done
            self._last = self._stepped = time.monotonic()
            if self._bar is not None:
                self._task = self._bar.add_task(unit, total=total, completed=done)
            elif self.mode == "lines":  # said with the first step: an input error before it stays one line
                self._pending = (
                    f"{unit}…"
                    if total is None
                    else f"{total} {unit} planned" + (f", {done} already done" if done else "")
                )

    def _line(self, text: str) -> None:
        print(f"{self.label}: {text}", file=sys.stderr, flush=True)

    def status(self, where: str, what: str) -> None:
        """Say what runs now (no step done); plain lines only for environment events."""
        with self._lock:
            if self._bar is not None:
                self._bar.update(self._task, description=f"{where}: {what}" if where else what)
            elif self.mode == "lines" and what in ("creating environment", "starting worker"):
                self._line(f"{where}: {what}")

    def now(self, what: str) -> None:
        """Say which step of the current cell runs now (``case: form pass: running the pass``); the
        heartbeat line of a long cell names it and counts the steps since the last cell."""
        with self._lock:
            self._now, self._steps = what, self._steps + 1
            if self._bar is not None:
                self._bar.update(self._task, description=what)

    def advance(self, where: str = "", what: str = "") -> None:
        """One step done (``what``, in ``where``)."""
        with self._lock:
            self.done += 1
            self._now, self._steps = "", 0
            self._stepped = time.monotonic()
            text = f"{where}: {what}" if where else what
            if self._bar is not None:
                self._bar.update(self._task, advance=1, description=text or self.unit)
            elif self.mode == "lines" and (
                self._pending or time.monotonic() - self._last >= self.every or self.done == self.total
            ):
                self._flush_pending()
                self._last = time.monotonic()
                count = f"{self.done}/{self.total}" if self.total is not None else f"{self.done}"
                self._line(f"{count} {self.unit}" + (f" ({text})" if text else ""))

    def close(self) -> None:
        self._stop.set()
        with self._lock:
            if self._bar is not None:
                self._bar.stop()
                self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
