"""Progress of a matrix run: a rich bar (cells done / total, current environment) on a terminal,
plain lines (at most one every few seconds, plus one per environment event) elsewhere, e.g. CI."""

from __future__ import annotations

import sys
import threading
import time


class Progress:
    """Thread-safe progress display.

    Args:
        total: cells planned; done: cells already finished (``--resume``).
        bar: True for a bar, False for plain lines, None to decide by whether stderr is a terminal.
    """

    def __init__(self, total: int, done: int = 0, bar: bool | None = None, *, every: float = 5.0):
        self.total, self.done, self.every = total, done, every
        self._lock = threading.Lock()
        self._last = 0.0
        self._bar = None
        if bar if bar is not None else sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
            from rich.progress import Progress as Bar

            self._bar = Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=Console(stderr=True), transient=False)
            self._task = self._bar.add_task("matrix", total=total, completed=done)
            self._bar.start()
        else:
            self._line(f"{total} cells planned, {done} already done")

    def _line(self, text: str) -> None:
        print(f"passcheck matrix: {text}", file=sys.stderr, flush=True)

    def status(self, env: str, what: str) -> None:
        with self._lock:
            if self._bar is not None:
                self._bar.update(self._task, description=f"{env}: {what}")
            elif what in ("creating environment", "starting worker"):
                self._line(f"{env}: {what}")

    def advance(self, env: str, what: str) -> None:
        with self._lock:
            self.done += 1
            if self._bar is not None:
                self._bar.update(self._task, advance=1, description=f"{env}: {what}")
            elif time.monotonic() - self._last >= self.every or self.done == self.total:
                self._last = time.monotonic()
                self._line(f"{self.done}/{self.total} cells ({env}: {what})")

    def close(self) -> None:
        with self._lock:
            if self._bar is not None:
                self._bar.stop()
                self._bar = None
