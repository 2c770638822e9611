"""One matrix worker process in one environment: start it, read the JSON lines it streams
(environment, case and pass markers, cells, errors, done), record the cells, and say how it
ended (:class:`Exit`). The runner (:mod:`passcheck.matrix.runner`) decides what to run next.
"""

from __future__ import annotations

import dataclasses
import json
import os
import selectors
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

from passcheck._procs import Children, kill_tree
from passcheck.matrix import create
from passcheck.progress import Progress
from passcheck.records import CellResult

#: Seconds a worker may take from its launch to its first case marker (imports, case modules, its pass worker)
#: when ``--timeout`` is shorter: on a loaded 2-core machine that took over 6 s, and a matrix at ``--timeout 6``
#: called the environment unusable.
STARTUP_SECONDS = 120.0


class _Log:
    """Append-only JSON lines, flushed per record (a killed run loses nothing) and fsync'ed at
    most once a second (an fsync per record would throttle the workers' streams)."""

    def __init__(self, path: Path):
        self._f = open(path, "a", encoding="utf-8")
        self._synced = time.monotonic()

    def write(self, record: dict[str, Any]) -> None:
        self._f.write(json.dumps(record, default=str) + "\n")
        self._f.flush()
        if time.monotonic() - self._synced > 1.0:
            os.fsync(self._f.fileno())
            self._synced = time.monotonic()

    def close(self) -> None:
        self._f.flush()
        os.fsync(self._f.fileno())
        self._f.close()


class Recorder:
    """Thread-safe append to results.jsonl + progress."""

    def __init__(self, path: Path, progress: Progress, t0: float):
        self.stream = _Log(path)
        self.progress = progress
        self.lock = threading.Lock()
        self.t0 = t0
        self.first_cell: float | None = None
        self.worker_seconds: dict[str, float] = {}

    def cell(self, cell: CellResult | dict[str, Any]) -> None:
        rec = cell.to_json() if isinstance(cell, CellResult) else cell
        with self.lock:
            if self.first_cell is None:
                self.first_cell = time.perf_counter() - self.t0
            self.stream.write(rec)
            self.progress.advance(rec["env"], f"{rec['case']} {rec['pass_id']}")

    def record(self, rec: dict[str, Any]) -> None:
        with self.lock:
            self.stream.write(rec)


#: On an interrupt the reports are written only from a results.jsonl up to this size (about
#: 5 000 cells: seconds); a bigger one would keep an interrupted run busy for minutes.


def tmp_env(tmp: Path) -> dict[str, str]:
    """The environment of a worker or uv process: TMPDIR is the run's private folder."""
    return {**os.environ, "TMPDIR": str(tmp)}


#: Worker deaths an environment may have (beyond two per case: the death and its confirmation)
#: before the cells the next death leaves are recorded as unchecked instead of re-run.


@dataclasses.dataclass
class Exit:
    """How a worker ended: ``done``, ``crashed``, ``timeout`` or ``error`` (an import failed:
    ``marker`` None, passcheck cannot run in the environment at all; else not in that unit);
    the last marker it sent; ``detail``: the error, or its exit text and stderr tail."""

    status: str
    marker: tuple[str, ...] | None
    detail: str
    saw_env: bool
    versions: dict[str, Any]


def run_worker(
    env: create.Env,
    job_file: Path,
    out: Path,
    timeout: float,
    rec: Recorder,
    remaining: dict,
    children: Children,
    tmp: Path,
) -> Exit:
    """Run one worker until done, death, timeout or an environment error (see :class:`_Exit`).

    Raises:
        Stopped: the run was interrupted before the worker started.
    """
    log_path = out / "jobs" / f"{env.spec.id}.stderr.log"
    with open(log_path, "ab") as log:
        offset = log.tell()
        proc = children.popen(
            [str(env.python), "-m", "passcheck.matrix.worker", "run", str(job_file.resolve())],
            stdout=subprocess.PIPE,
            stderr=log,
            cwd=env.root,
            bufsize=0,
            env=tmp_env(tmp),
        )
    started = time.perf_counter()
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    buf, marker, saw_env, status, versions, error = b"", None, False, None, {}, ""
    last = time.monotonic()
    try:
        while status is None:
            # until its first case marker the worker is starting (imports, its environment line, the case modules,
            # its pass worker), not running a pass: --timeout bounds a pass or a run, STARTUP_SECONDS a start
            limit = timeout if marker is not None else max(timeout, STARTUP_SECONDS)
            events = sel.select(timeout=min(1.0, max(0.05, limit - (time.monotonic() - last))))
            if children.stopped:  # interrupted: stop reading; the worker is being killed
                status = "crashed"
                break
            if not events:
                if proc.poll() is not None and not _readable(proc):
                    status = "crashed"
                elif time.monotonic() - last > limit:
                    status = "timeout"
                continue
            chunk = os.read(proc.stdout.fileno(), 1 << 16)
            if not chunk:
                status = "crashed"
                break
            last = time.monotonic()
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for line in lines:
                try:
                    msg = json.loads(line)
                except ValueError:
                    continue
                kind = msg.get("type")
                if kind == "environment":
                    saw_env, versions = True, msg.get("versions") or {}
                    rec.record(msg)
                elif kind == "case":
                    marker = (msg["case"],)
                    rec.progress.status(env.spec.id, msg["case"])
                elif kind == "pass":
                    marker = (msg["case"], msg["pass"])
                elif kind == "cell":
                    if remaining.pop((msg["case"], msg["form"], msg["pass_id"], msg["env"]), None) is not None:
                        rec.cell(msg)
                elif kind == "error":
                    error = msg.get("message") or "the worker reported an error"
                    marker = marker if msg.get("kind") == "unit" else None
                elif kind == "done":
                    status = "done"
    finally:
        if status != "done":
            _kill(proc)
        proc.wait()
        with rec.lock:
            rec.worker_seconds[env.spec.id] = rec.worker_seconds.get(env.spec.id, 0.0) + time.perf_counter() - started
        children.done(proc)
        proc.stdout.close()
    if error and status != "done":
        return Exit("error", marker, f"passcheck cannot run in {env.spec.id}: {error}", saw_env, versions)
    return Exit(status, marker, _exit_text(proc.returncode, log_path, offset), saw_env, versions)


def _readable(proc: subprocess.Popen) -> bool:
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    return bool(sel.select(timeout=0))


def _kill(proc: subprocess.Popen) -> None:
    """The worker, the pass worker it started and whatever the passes started (commands)."""
    if proc.returncode is None:  # not reaped yet: its pid is still its own
        kill_tree(proc.pid)


def _exit_text(code: int | None, log: Path, offset: int = 0, lines: int = 3) -> str:
    """How the worker ended (signal name or exit code) and the last ``lines`` it wrote to
    stderr (``log`` from byte ``offset``: this worker's part of the environment's log)."""
    if code is not None and code < 0:
        try:
            what = f"killed by {signal.Signals(-code).name}"
        except ValueError:
            what = f"killed by signal {-code}"
    else:
        what = f"exit code {code}"
    try:
        with open(log, "rb") as f:
            f.seek(offset)
            text = f.read().decode("utf-8", "replace")
    except OSError:
        text = ""
    tail = [x.strip()[:300] for x in text.splitlines() if x.strip()][-lines:]
    return what + (f"; last stderr lines: {' | '.join(tail)}" if tail else "")
