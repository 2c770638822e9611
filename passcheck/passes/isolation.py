"""Run passes in a child process so a crashing, hanging or memory-hungry pass costs one cell.

:class:`IsolatedExecutor` is an engine executor (``(adapter, model, workdir) → PassOutcome``,
see :data:`passcheck.engine.Executor`). It keeps one persistent worker process (a fresh interpreter, no
inherited threads, that never runs the caller's ``__main__``: :mod:`passcheck.passes._worker_process`)
and sends it each job as
``(pickled adapter, model bytes, workdir)``; the worker answers with the outcome fields. The worker
is reused across cells, so the tools a pass imports (onnxruntime …) are imported once.

What one cell can cost, and how it is recorded:

- the worker dies (segfault, ``os.abort()``, ``std::terminate``, SIGKILL): ``crashed``, error
  ``killed by SIGSEGV`` and the last lines the worker wrote to stdout/stderr during that cell;
- no answer within ``timeout`` seconds: the worker is killed, ``timeout``;
- the worker's address space is capped at ``memory_mb`` (``RLIMIT_AS``); an allocation beyond it
  raises ``MemoryError`` in Python / ``std::bad_alloc`` in C++: ``out-of-memory`` (also when the
  C++ error aborts the worker).

After any of these a fresh worker is started for the next cell. :meth:`IsolatedExecutor.run_model`
runs models (onnxruntime sessions on feeds) in the same worker, so a model that crashes
onnxruntime costs one run; the engine uses it for every form and every pass output.
:meth:`IsolatedExecutor.call` runs any importable function on a model there (``annotations``
observes a model's values with it). :func:`executor_for` is how every front door (the API, the
CLI commands, :mod:`passcheck.testing`, the pytest plugin) gets its executor: the caller's, a new
isolated one closed at the end, or in process when isolation is turned off.

Adapters are sent by pickle. A :class:`~passcheck.passes.FunctionAdapter` pickles its callable by
reference (module + name): a callable from an installed module, or from a file the worker is told
to ``preload`` (the CLI preloads every ``--cases-from`` file), runs in the persistent worker. A
callable the worker cannot import (a lambda, a closure, a function of a ``__main__`` or test
module) runs in a one-shot ``fork`` child instead: same limits and statuses, but started per cell
and sharing the parent's memory image at the time of the fork.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import hashlib
import multiprocessing
import os
import pickle
import shutil
import signal
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from passcheck import interrupts
from passcheck._procs import kill_tree
from passcheck.errors import PasscheckError
from passcheck.passes._base import PassAdapter, PassOutcome

if TYPE_CHECKING:
    import onnx

    from passcheck.runtime.session import RunResult

DEFAULT_TIMEOUT = 300.0
DEFAULT_MEMORY_MB = 8192
#: Error text that means an allocation failed under the memory cap.
_OOM_MARKERS = ("MemoryError", "bad_alloc", "bad allocation", "Failed to allocate memory", "out of memory")
_TAIL_CHARS = 1500
#: Seconds a worker may take to start (import passcheck, preload modules) and take a job.
_START_TIMEOUT = 120.0


class IsolatedExecutor:
    """Run each pass in a worker process with a wall-time and a memory limit.

    Args:
        timeout: seconds one pass may run; None for no limit.
        memory_mb: address-space cap of the worker (RLIMIT_AS) in MiB; None for no cap.
        preload: case/pass module files the worker imports at start (see module docs).

    Use as a context manager or call :meth:`close` to stop the worker.
    """

    #: Told (``on_step(what)``) which form, pass and step the engine runs next: a front door's progress.
    on_step: Any = None

    def __init__(self, timeout: float | None = DEFAULT_TIMEOUT, memory_mb: int | None = DEFAULT_MEMORY_MB,
                 preload: Sequence[str | Path] = ()):
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.preload = [str(Path(p).resolve()) for p in preload]
        self._dir = Path(tempfile.mkdtemp(prefix="passcheck-worker-"))
        self._log = self._dir / "worker.log"
        self._log.touch()
        (self._dir / "tmp").mkdir()  # the worker's TMPDIR: what a killed pass leaves is removed by close()
        self._proc: Any = None
        self._conn: Any = None
        self._forked: set[str] = set()  # adapter ids the worker could not unpickle
        self._runs = _RunCache()

    def __enter__(self) -> "IsolatedExecutor":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __call__(self, adapter: PassAdapter, model: "onnx.ModelProto", workdir: Path) -> PassOutcome:
        data = model.SerializeToString()
        try:
            blob = pickle.dumps(adapter)
        except Exception:  # noqa: BLE001 - lambdas, closures, unpicklable state
            blob = None
        if blob is None or adapter.id in self._forked:
            return self._run_forked(adapter, data, workdir)
        for attempt in (1, 2):
            self._ensure_worker()
            offset = self._log.stat().st_size
            ack = self._submit(blob, data, workdir)
            if ack is not None or attempt == 2:
                break
            self._stop()  # the worker was already dead (killed between cells): start a new one, once
        if ack == "unpicklable":
            self._forked.add(adapter.id)
            return self._run_forked(adapter, data, workdir)
        if ack is None:
            raise self._start_error()
        return self._await(adapter, self._proc, self._conn, offset)

    def run_model(self, model: "onnx.ModelProto", feeds: dict[str, Any], expose: Sequence[str] = (), shapes: Sequence[str] = ()) -> "RunResult":
        """:func:`passcheck.runtime.observe.run_observing` in the worker (``expose`` whole, the
        shape and element type of ``shapes``): a model that crashes or hangs onnxruntime gives a
        RunResult with the error, never the end of the run.

        A run of the same model bytes on equal feeds observing the same values is answered from
        :class:`_RunCache` (most pass outputs of a small model equal its input or another pass's
        output); a run that killed or timed out the worker is not kept."""
        from passcheck.runtime.session import RunResult

        data = model.SerializeToString()
        key = self._runs.key(data, feeds, expose, shapes)
        if (kept := self._runs.get(key)) is not None:
            return kept
        reply, error = self._in_worker(_ModelRun(dict(feeds), list(expose), list(shapes)), model, data)
        if error is not None:
            return RunResult({}, {}, error=error)
        self._runs.put(key, reply["run"])
        return self._runs.get(key) or reply["run"]

    def call(self, fn: Any, model: "onnx.ModelProto", *args: Any) -> Any:
        """``fn(model, *args)`` in the worker (``fn`` importable by name, arguments picklable).

        Returns:
            What ``fn`` returned.

        Raises:
            whatever ``fn`` raised, re-raised here;
            WorkerDied: the worker died (signal, exit) or gave no answer within ``timeout``.
        """
        reply, error = self._in_worker(_Call(fn, args), model)
        if error is not None:
            raise WorkerDied(error)
        if "raised" in reply:
            raise reply["raised"]
        return reply["value"]

    def _in_worker(self, job: Any, model: "onnx.ModelProto", data: bytes | None = None) -> tuple[Any, str | None]:
        """Run a model job in the worker: (reply, None), or (None, why there is no reply).
        ``data``: the model's bytes when the caller already serialized it."""
        blob = pickle.dumps(job)
        data = model.SerializeToString() if data is None else data
        for attempt in (1, 2):
            self._ensure_worker()
            offset = self._log.stat().st_size
            ack = self._submit(blob, data, self._dir)
            if ack is not None or attempt == 2:
                break
            self._stop()
        if ack is None:
            raise self._start_error()
        if ack != "started":
            return None, "the run worker could not be started: " + self._tail(0)
        try:
            ready = _poll(self._conn, self.timeout)
            reply = self._conn.recv() if ready else None
        except (EOFError, OSError):
            ready, reply = True, None
        if reply is not None:
            return reply, None
        if not ready:
            _kill_group(self._proc)
            error = f"onnxruntime gave no result after {self.timeout:g} s; the run was killed"
        else:
            kill_tree(self._proc.pid)
            self._proc.join(5)
            error = "onnxruntime " + _death(self._proc.exitcode)[1].replace("the pass ", "")
        self._stop()
        tail = self._tail(offset)
        return None, error + (f"\nlast output:\n{tail}" if tail else "")

    def _submit(self, blob: bytes, data: bytes, workdir: Path) -> str | None:
        """Send a job; the worker's acknowledgement ("started" / "unpicklable"), None if it is dead."""
        try:
            self._conn.send((blob, data, str(workdir)))
            if not _poll(self._conn, _START_TIMEOUT):
                return None
            return self._conn.recv()
        except (EOFError, OSError):
            return None

    def _start_error(self) -> "WorkerStartError":
        tail = self._tail(0).strip().splitlines()
        last = f" (its last output: {tail[-1][:200]})" if tail else ""
        limit = f" under the {self.memory_mb} MiB memory limit (raise --memory-limit)" if self.memory_mb else ""
        return WorkerStartError(f"the isolation worker could not be started{limit}{last}; "
                                "this is passcheck not starting, "
                                "not a verdict on any pass: check that this interpreter can `import passcheck`, "
                                "or run without isolation (--no-isolation, isolation=False)")

    def close(self) -> None:
        """Stop the worker and remove its log."""
        self._stop()
        shutil.rmtree(self._dir, ignore_errors=True)

    # -- internals -------------------------------------------------------------------------

    def _ensure_worker(self) -> None:
        if self._proc is not None and self._proc.is_alive():
            return
        from passcheck.passes._worker_process import WorkerProcess

        self._stop()
        self._proc = WorkerProcess(_worker_main, (self.memory_mb, str(self._log), self.preload))  # never runs __main__
        self._conn = self._proc.conn

    def _stop(self) -> None:
        """Kill the worker and forget it; safe whether it runs, died, or never started."""
        if self._proc is not None and self._proc.pid is not None:  # pid None: start() never got a process
            if self._proc.exitcode is None:  # running, or dead but not yet reaped (its pid still ours)
                _kill_group(self._proc)
            self._proc.join(5)
        if self._conn is not None:
            self._conn.close()
        self._proc = self._conn = None

    def _run_forked(self, adapter: PassAdapter, data: bytes, workdir: Path) -> PassOutcome:
        ctx = multiprocessing.get_context("fork")
        conn, child = ctx.Pipe()
        offset = self._log.stat().st_size
        with _quiet_fork_warning():
            proc = ctx.Process(target=_fork_main, args=(child, adapter, data, str(workdir), self.memory_mb, str(self._log)), daemon=True)
            proc.start()
        child.close()
        try:
            return self._await(adapter, proc, conn, offset)
        finally:
            _kill_group(proc)  # also what the child left running in its group
            proc.join(5)
            conn.close()

    def _await(self, adapter: PassAdapter, proc, conn, offset: int) -> PassOutcome:
        start = time.perf_counter()
        try:
            ready = _poll(conn, self.timeout)
            reply = conn.recv() if ready else None
        except (EOFError, OSError):
            ready, reply = True, None
        seconds = time.perf_counter() - start
        if reply is None:
            if not ready:
                _kill_group(proc)
                proc.join(5)
                status, error = "timeout", f"no result after {self.timeout:g} s; the pass was killed"
            else:
                kill_tree(proc.pid)  # what the dead worker's pass started (before join frees the pid)
                proc.join(5)
                status, error = _death(proc.exitcode)
            if proc is self._proc:
                self._stop()
            tail = self._tail(offset)
            if status == "crashed" and any(m in tail for m in _OOM_MARKERS):
                status = "out-of-memory"
                error += f" (allocation failed under the {self.memory_mb} MiB limit)"
            return PassOutcome(adapter.id, status, error=error + (f"\nlast output:\n{tail}" if tail else ""),
                               versions=adapter.versions(), seconds=seconds)
        fields = dict(reply)
        model_bytes = fields.pop("model")
        if model_bytes is not None:
            import onnx

            fields["model"] = onnx.ModelProto.FromString(model_bytes)
        if fields["status"] == "out-of-memory":
            fields["error"] = f"{fields['error']} (allocation failed under the {self.memory_mb} MiB limit)"
        return PassOutcome(**fields)

    def _tail(self, offset: int) -> str:
        with open(self._log, "rb") as f:
            f.seek(offset)
            text = f.read().decode("utf-8", "replace").strip()
        return text[-_TAIL_CHARS:]


@contextlib.contextmanager
def executor_for(executor: Any = None, *, isolation: bool = True, timeout: float | None = None,
                 memory_mb: int | None = DEFAULT_MEMORY_MB, preload: Sequence[str | Path] = ()):
    """The executor a front door runs passes and models with.

    ``executor`` when one is given (the caller owns it); otherwise a new :class:`IsolatedExecutor`
    with these limits (``timeout`` seconds per pass or model run, None for :data:`DEFAULT_TIMEOUT`),
    closed when the block ends; with ``isolation=False``, :func:`passcheck.engine.run_in_process`
    (a crash then ends the calling process).
    """
    if executor is not None:
        yield executor
    elif not isolation:
        from passcheck.engine import run_in_process

        yield run_in_process
    else:
        with IsolatedExecutor(timeout=timeout or DEFAULT_TIMEOUT, memory_mb=memory_mb, preload=preload) as ex:
            yield ex


def _poll(conn, timeout: float | None) -> bool:
    """``conn.poll(timeout)``, waking twice a second to honour an interrupt whose
    KeyboardInterrupt was lost (see passcheck.interrupts)."""
    end = None if timeout is None else time.monotonic() + timeout
    while True:
        step = 0.5 if end is None else max(0.0, min(0.5, end - time.monotonic()))
        if conn.poll(step):
            return True
        interrupts.check()
        if end is not None and time.monotonic() >= end:
            return False


def _kill_group(proc) -> None:
    """Kill a worker, every process it started and every process left in its group (commands a
    pass started, children those started, reparented or not)."""
    kill_tree(proc.pid)
    if proc.is_alive():
        proc.kill()


def _death(exitcode: int | None) -> tuple[str, str]:
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return "crashed", f"the pass killed its process: {name}"
    return "crashed", f"the pass ended its process (exit code {exitcode})"


def _die_with_parent() -> None:
    """Linux: get SIGKILL when the process that started this worker dies, however it dies.

    The worker leads its own process group, so killing the parent's group does not reach it; and
    a forked child holds the parent's pipe ends, so a sibling worker would never see EOF. Without
    this, a killed passcheck could leave a hung pass running forever.
    """
    import ctypes

    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: the parent's cleanup is all there is
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def _limit(memory_mb: int | None, log_path: str) -> None:
    """In the child: ignore Ctrl-C (the parent decides), send output to the log, cap memory."""
    import faulthandler
    import resource

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    faulthandler.disable()  # the pass's own last output is the crash report, not our stack dump
    _die_with_parent()
    os.setpgrp()  # the worker leads a process group: killing it kills what its passes started
    os.environ["PASSCHECK_IN_WORKER"] = "1"
    os.environ["TMPDIR"] = tempfile.tempdir = str(Path(log_path).parent / "tmp")
    try:
        fd = os.open(log_path, os.O_WRONLY | os.O_APPEND)
    except OSError:  # the parent is shutting down and removed its folder: nobody will read this output
        fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)
    if memory_mb:
        cap = memory_mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


class WorkerStartError(PasscheckError):
    """The isolation worker did not start (twice): passcheck cannot run anything isolated here. No
    cell is judged; the message says what to do."""


class WorkerDied(Exception):
    """A job sent with :meth:`IsolatedExecutor.call` killed its worker or ran out of time; the
    message says how (signal name or timeout) and ends with the worker's last output."""


class _Call:
    """A job for the worker: ``fn(model, *args)``; the reply carries the value or the exception."""

    def __init__(self, fn: Any, args: tuple):
        self.fn, self.args = fn, args

    def __call__(self, data: bytes) -> dict[str, Any]:
        import onnx

        try:
            return {"value": self.fn(onnx.ModelProto.FromString(data), *self.args)}
        except Exception as exc:  # noqa: BLE001 - re-raised in the parent
            try:
                pickle.dumps(exc)
            except Exception:  # noqa: BLE001 - an exception that cannot travel: its text does
                exc = RuntimeError(f"{type(exc).__name__}: {exc}")
            return {"raised": exc}


class _RunCache:
    """Recent model runs, by (sha256 of the model bytes, digest of the feeds, exposed names), up
    to ``max_bytes`` of arrays in all (least recently used dropped first). :meth:`get` hands out a
    copy whose dicts the caller may change."""

    def __init__(self, max_bytes: int = 256 << 20):
        self.max_bytes, self.size = max_bytes, 0
        self._runs: "collections.OrderedDict[tuple, tuple[RunResult, int]]" = collections.OrderedDict()

    @staticmethod
    def key(data: bytes, feeds: dict[str, Any], expose: Sequence[str], shapes: Sequence[str] = ()) -> tuple:
        h = hashlib.sha256()
        for name in sorted(feeds):
            h.update(name.encode() + b"\0")
            _digest_value(h, feeds[name])
        return hashlib.sha256(data).digest(), h.digest(), tuple(expose), tuple(shapes)

    def get(self, key: tuple) -> "RunResult | None":
        if key not in self._runs:
            return None
        self._runs.move_to_end(key)
        run = self._runs[key][0]
        return dataclasses.replace(run, outputs=dict(run.outputs), observed=dict(run.observed))

    def put(self, key: tuple, run: "RunResult") -> None:
        size = sum(_nbytes(v) for v in (*run.outputs.values(), *run.observed.values()))
        if size > self.max_bytes:
            return
        self._runs[key] = (run, size)
        self.size += size
        while self.size > self.max_bytes:
            self.size -= self._runs.popitem(last=False)[1][1]


def _digest_value(h: Any, value: Any) -> None:
    """Feed ``value`` (array, sequence of arrays, None…) into hash ``h``, with its dtype and shape."""
    import numpy as np

    if isinstance(value, np.ndarray):
        h.update(f"{value.dtype.str}{value.shape}".encode())
        h.update(np.ascontiguousarray(value).view(np.uint8).tobytes() if value.dtype != object else repr(value.tolist()).encode())
    elif isinstance(value, (list, tuple)):
        h.update(f"{type(value).__name__}{len(value)}[".encode())
        for v in value:
            _digest_value(h, v)
        h.update(b"]")
    else:
        h.update(repr((type(value).__name__, value)).encode())


def _nbytes(value: Any) -> int:
    if isinstance(value, (list, tuple)):
        return sum(_nbytes(v) for v in value)
    return int(getattr(value, "nbytes", 64))


class _ModelRun:
    """A job for the worker: run the model it is sent on ``feeds`` (see run_model)."""

    def __init__(self, feeds: dict[str, Any], expose: list[str], shapes: list[str] = ()):
        self.feeds, self.expose, self.shapes = feeds, expose, list(shapes)

    def __call__(self, data: bytes) -> dict[str, Any]:
        import onnx

        from passcheck.runtime.observe import run_observing

        model = onnx.ModelProto.FromString(data)
        # an intermediate whose shape only is read travels as its TensorMeta: copying every
        # activation through the pipe cost more than the run itself (bench/annotations.py)
        return {"run": run_observing(model, self.feeds, expose=self.expose, shapes=self.shapes)}


def _job(adapter: PassAdapter, data: bytes, workdir: str) -> dict[str, Any]:
    """Run one pass; the reply fields of :class:`PassOutcome` (model as bytes)."""
    import onnx

    if isinstance(adapter, (_ModelRun, _Call)):
        return adapter(data)

    try:
        outcome = adapter.run(onnx.ModelProto.FromString(data), Path(workdir))
        out = outcome.model.SerializeToString() if outcome.model is not None else None
    except MemoryError:
        return {"pass_id": adapter.id, "status": "out-of-memory", "error": "MemoryError", "model": None,
                "versions": {}, "seconds": 0.0}
    status = outcome.status
    if status == "crashed" and outcome.error and any(m in outcome.error for m in _OOM_MARKERS):
        status = "out-of-memory"
    return {"pass_id": outcome.pass_id, "status": status, "error": outcome.error, "model": out,
            "versions": outcome.versions, "seconds": outcome.seconds, "input_mutated": outcome.input_mutated}


def _worker_main(conn, memory_mb: int | None, log_path: str, preload: list[str]) -> None:
    _limit(memory_mb, log_path)
    for tool in ("onnx", "onnxruntime"):  # imported before the first job: its timeout is the pass's, not an import's
        try:
            __import__(tool)
        except ImportError:
            pass
    if preload:
        from passcheck.cases import load_path

        for p in preload:
            load_path(p)
    while True:
        try:
            blob, data, workdir = conn.recv()
        except (EOFError, OSError):
            return
        try:
            adapter = pickle.loads(blob)
        except Exception:  # noqa: BLE001 - the parent falls back to a forked child
            conn.send("unpicklable")
            continue
        conn.send("started")
        conn.send(_job(adapter, data, workdir))


def _fork_main(conn, adapter: PassAdapter, data: bytes, workdir: str, memory_mb: int | None, log_path: str) -> None:
    _limit(memory_mb, log_path)
    conn.send(_job(adapter, data, workdir))


@contextlib.contextmanager
def _quiet_fork_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*fork.*", category=DeprecationWarning)
        yield
