"""A long-lived matrix worker in one environment (``python -m passcheck.matrix.worker serve``):
started once, sent one job a line, read until that job's ``done``.

``hunt --env`` judges every item in every environment; a worker started per item spends its time
importing onnx, onnxruntime and passcheck and starting its pass worker (about 3 s an environment
on a loaded 2-core machine). A :class:`Server` keeps one up across items, so an item costs its
pass and oracles. It knows only one way a job ends well (``done``); a death, a hang (no line
within ``timeout`` seconds) or an error report stops the worker and :meth:`Server.judge` returns
None with what happened, so the caller re-runs that item the matrix's way (a fresh worker, the
matrix's verdict on deaths and hangs), and the next job starts a new worker.
"""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import time
from pathlib import Path
from typing import Any

from passcheck._procs import Children, kill_tree
from passcheck.matrix import create
from passcheck.matrix.launch import STARTUP_SECONDS, _exit_text, tmp_env
from passcheck.records import CellResult


class Server:
    """One ``worker serve`` process in ``env`` (started on the first :meth:`judge`).

    Attributes:
        env: the created environment.
        setup: the job fields that hold for every job (``env``, ``repro_env``, ``timeout``,
            ``cases_from``), written to ``folder/<env>.serve.json``.
        folder: where the setup file and the worker's stderr log (``<env>.serve.log``) go.
        timeout: seconds without a line from the worker before it is killed as hung (a worker not
            yet past its start, i.e. before its first case marker, gets ``STARTUP_SECONDS``).
        children: the process registry (an interrupt kills the worker with it).
        tmp: the worker's TMPDIR.
        failures: jobs in a row that did not end in ``done``.
        started: workers started so far.
    """

    def __init__(
        self, env: create.Env, setup: dict[str, Any], folder: Path, timeout: float, children: Children, tmp: Path
    ) -> None:
        self.env, self.setup, self.folder, self.timeout = env, setup, folder, timeout
        self.children, self.tmp = children, tmp
        self.failures = self.started = 0
        self.proc: subprocess.Popen | None = None
        self._buf = b""
        self._serving = False  # the running worker sent a case marker (its start is over)
        self._log_offset = 0

    @property
    def log(self) -> Path:
        return self.folder / f"{self.env.spec.id}.serve.log"

    def _start(self) -> subprocess.Popen:
        self.folder.mkdir(parents=True, exist_ok=True)
        setup_file = self.folder / f"{self.env.spec.id}.serve.json"
        setup_file.write_text(json.dumps(self.setup), encoding="utf-8")
        with open(self.log, "ab") as log:
            self._log_offset = log.tell()
            proc = self.children.popen(
                [str(self.env.python), "-m", "passcheck.matrix.worker", "serve", str(setup_file.resolve())],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=log,
                cwd=self.env.root,
                bufsize=0,
                env=tmp_env(self.tmp),
            )
        self.proc, self._buf, self._serving = proc, b"", False
        self.started += 1
        return proc

    def judge(self, job: dict[str, Any]) -> tuple[list[CellResult] | None, str]:
        """Send ``job`` (``models``, ``cases``, ``cases_from``) and read its cells until ``done``:
        (cells, ``""``); or (None, what happened) when the worker died, hung, reported an error or
        could not be started (it is stopped; the next job starts another)."""
        proc = self.proc if self.proc is not None and self.proc.poll() is None else self._start()
        try:
            proc.stdin.write((json.dumps(job) + "\n").encode())
            proc.stdin.flush()
        except OSError as exc:
            return self._failed(f"the worker did not take the job ({exc})")
        cells: list[CellResult] = []
        sel = selectors.DefaultSelector()
        sel.register(proc.stdout, selectors.EVENT_READ)
        last = time.monotonic()
        try:
            while True:
                if self.children.stopped:
                    return self._failed("interrupted")
                # a worker that has not sent its first case marker is starting (imports, its pass worker)
                limit = self.timeout if self._serving else max(self.timeout, STARTUP_SECONDS)
                if not sel.select(timeout=min(1.0, max(0.05, limit - (time.monotonic() - last)))):
                    if proc.poll() is not None:
                        return self._failed(self._exit())
                    if time.monotonic() - last > limit:
                        return self._failed(f"no result within {limit:g} s")
                    continue
                chunk = os.read(proc.stdout.fileno(), 1 << 16)
                if not chunk:
                    return self._failed(self._exit())
                last = time.monotonic()
                self._buf += chunk
                *lines, self._buf = self._buf.split(b"\n")
                for line in lines:
                    try:
                        msg = json.loads(line)
                    except ValueError:
                        continue
                    kind = msg.get("type")
                    self._serving = self._serving or kind == "case"
                    if kind == "cell" and msg.get("env") == self.env.spec.id:
                        cells.append(CellResult.from_json(msg))
                    elif kind == "error":
                        return self._failed(f"the worker reported: {msg.get('message')}")
                    elif kind == "done":
                        self.failures = 0
                        return cells, ""
        finally:
            sel.close()

    def _exit(self) -> str:
        self.proc.wait()
        return "the worker died: " + _exit_text(self.proc.returncode, self.log, self._log_offset)

    def _failed(self, why: str) -> tuple[None, str]:
        self.failures += 1
        self.stop()
        return None, why

    def close_input(self) -> None:
        """Close the worker's input: it exits once the job it is on (if any) is answered."""
        if self.proc is not None:
            self._close_input(self.proc)

    @staticmethod
    def _close_input(proc: subprocess.Popen) -> None:
        try:
            proc.stdin.close()
        except OSError:
            pass

    def stop(self, grace: float = 0.0) -> None:
        """End the worker: close its input (it exits at end of input) and wait up to ``grace``
        seconds, then kill it with whatever it started."""
        proc, self.proc = self.proc, None
        if proc is None:
            return
        self._close_input(proc)
        if grace > 0:
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                pass
        if proc.returncode is None:
            kill_tree(proc.pid)
        proc.wait()
        self.children.done(proc)
        proc.stdout.close()
