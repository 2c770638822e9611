"""One persistent worker process (and one-shot forked children) that run jobs under limits.

:class:`Worker` keeps one worker (a fork of the process's pre-imported template,
:mod:`passcheck.execution.template`, else a fresh interpreter started as ``python -c``, see
:mod:`passcheck.execution.child`: no inherited threads, never the caller's ``__main__``) and sends it each job as
``(pickled job, model bytes, workdir)``. The worker is reused,
so the tools a job imports (onnxruntime …) are imported once. A job is any picklable callable
``job(model_bytes, workdir) -> reply`` (see :mod:`passcheck.execution.process`); this layer knows
nothing of passes or model runs: :mod:`passcheck.passes.isolation` and
:mod:`passcheck.runtime.isolated` define those jobs and read their replies.

What one job can cost, and how it comes back (:class:`Died`): the worker dies (segfault,
``os.abort()``, ``std::terminate``, SIGKILL) — the signal and the last lines the worker wrote
during that job; no answer within ``timeout`` seconds — the worker is killed. The worker's address
space is capped at ``memory_mb`` (``RLIMIT_AS``). After any of these a fresh worker is started for
the next job.

Model bytes cross the pipe once: the worker keeps the models it was sent or made last by the sha256
of their bytes (:class:`~passcheck.execution.process.Kept`, a pass output included), the parent
keeps the same list of digests, and a job naming a kept model (:meth:`Worker.run_kept`) is sent
no bytes. Inside :meth:`Worker.fixed_models` (the engine, while it runs and judges one pass's
outputs) a model's digest is computed once, or is the one the worker sent with the pass output.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import multiprocessing
import pickle
import shutil
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from passcheck import interrupts
from passcheck._procs import kill_tree
from passcheck.errors import WorkerDied, WorkerStartError
from passcheck.execution import payloads, process

if TYPE_CHECKING:
    import onnx

DEFAULT_TIMEOUT = 300.0
DEFAULT_MEMORY_MB = 8192
_TAIL_CHARS = 1500
#: Seconds a worker may take to start (import passcheck, preload modules) and take a job.
_START_TIMEOUT = 120.0
#: The worker could not unpickle the job (its callable is not importable there).
UNPICKLABLE = "unpicklable"


@dataclasses.dataclass(frozen=True)
class Died:
    """A job that gave no reply.

    Attributes:
        timed_out: no reply within the timeout (the worker was killed).
        how: how the process ended (:func:`passcheck.execution.process.death`), "" on timeout.
        tail: the last output the worker wrote during the job.
        seconds: wall time until the reply was given up on.
        not_started: the worker could not be started or take the job at all.
    """

    timed_out: bool
    how: str
    tail: str
    seconds: float = 0.0
    not_started: bool = False

    def tail_text(self) -> str:
        """``"\\nlast output:\\n…"``, or "" when the worker wrote nothing."""
        return f"\nlast output:\n{self.tail}" if self.tail else ""

    def run_error(self, timeout: float | None) -> str:
        """The error of a model run (or a :meth:`Worker.call`) that died this way."""
        if self.not_started:
            return "the run worker could not be started: " + self.tail
        if self.timed_out:
            return f"onnxruntime gave no result after {timeout:g} s; the run was killed" + self.tail_text()
        return f"onnxruntime {self.how}" + self.tail_text()


class Worker:
    """Run jobs in a worker process with a wall-time and a memory limit.

    Args:
        timeout: seconds one job may run; None for no limit.
        memory_mb: address-space cap of the worker (RLIMIT_AS) in MiB; None for no cap.
        preload: module files (case or pass modules) the worker imports at start, so a callable
            of such a module pickled by reference resolves there (:mod:`passcheck.user_modules`).
        warm: module names the jobs will import (a tool's package, e.g. ``onnxscript``): a worker
            template started by :meth:`start` imports them ahead, while the caller works
            (:func:`passcheck.execution.template.prestart`); thread-free imports only.

    Use as a context manager or call :meth:`close` to stop the worker.
    """

    def __init__(
        self,
        timeout: float | None = DEFAULT_TIMEOUT,
        memory_mb: int | None = DEFAULT_MEMORY_MB,
        preload: Sequence[str | Path] = (),
        warm: Sequence[str] = (),
    ):
        self.timeout = timeout
        self.memory_mb = memory_mb
        self.preload = [str(Path(p).resolve()) for p in preload]
        self.warm = tuple(warm)
        self._dir = Path(tempfile.mkdtemp(prefix="passcheck-worker-"))
        self._log = self._dir / "worker.log"
        self._log.touch()
        (self._dir / "tmp").mkdir()  # the worker's TMPDIR: what a killed job leaves is removed by close()
        self._proc: Any = None
        self._conn: Any = None
        self._ready = False  # the running worker said READY (else it is still starting: see start())
        self._pending = 0  # replies the running worker owes (a job sent and not yet answered: an interrupted wait)
        self._held = process.Kept(process.kept_budget(memory_mb))  # digests and sizes of what the worker keeps
        self._fixed = 0  # depth of fixed_models() blocks
        self._digests: dict[int, tuple[Any, bytes]] = {}  # id(model) → (model, digest), inside fixed_models()
        #: Counts the worker processes stopped (killed, died, replaced): what a process kept (models, a job's own
        #: stores) is gone when this changes.
        self.generation = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        """Start the worker process now without waiting for it, so its start-up (importing onnx and
        onnxruntime: about a second of CPU) overlaps what the caller does before its first job
        (importing the tools itself, building models); the first job waits for it to be ready.
        Nothing is done when a worker runs or is starting.

        When this process has no worker template yet (:mod:`passcheck.execution.template`), only
        the template is started: it answers a fork once its imports are done, so the fork is left
        to the first job and the template's imports overlap the caller's (forking now would wait
        for them here).

        Raises:
            OSError: the interpreter could not be started.
        """
        from passcheck.execution import template

        if self._proc is None or (self._ready and not self._proc.is_alive()):
            with contextlib.suppress(OSError):  # no template: _launch starts an interpreter
                if self._proc is None and template.prestart(self.warm):
                    return
            self._launch()

    def ready(self) -> None:
        """Start the worker if none runs and wait (up to ``_START_TIMEOUT`` seconds) until it can
        take a job: a caller that bounds each job's wall time by a deadline of its own makes the
        worker's start part of its own start, not of its first job.

        Raises:
            WorkerStartError: the worker could not start or did not say it was ready.
        """
        self._ensure_worker()

    def close(self) -> None:
        """Stop the worker and remove its log."""
        self._stop()
        shutil.rmtree(self._dir, ignore_errors=True)

    def reset(self) -> None:
        """Forget what one front-door block left in this object (its log's text, the digests of a
        :meth:`fixed_models` block), keeping the worker process and what it keeps by digest: the
        pool (:mod:`passcheck.execution.pool`) calls it before handing the worker to the next block. A worker
        that still owes a reply (a wait that was interrupted) is stopped: its answer would be read as the next
        job's; the next job starts a new one."""
        if self._pending:
            self._stop()
        self._digests.clear()
        self._log.write_bytes(b"")  # the worker appends (O_APPEND): its next job's output starts at 0

    @property
    def pid(self) -> int | None:
        """The worker process's id, None when none runs (not started yet, or stopped after a death)."""
        return None if self._proc is None else self._proc.pid

    @property
    def folder(self) -> Path:
        """The worker's own folder (its log and TMPDIR), removed by :meth:`close`."""
        return self._dir

    def run(self, blob: bytes, data: bytes, workdir: Path) -> Any:
        """Run the pickled job ``blob`` on ``data`` in the persistent worker.

        Returns:
            the job's reply; :data:`UNPICKLABLE` when the worker cannot unpickle it; or a
            :class:`Died` (``not_started`` when no worker could take it).
        """
        early, offset = self._hand_over(blob, data, workdir)
        if early is not None:
            return early
        return self._await(self._proc, self._conn, offset)

    def run_batch(self, blob: bytes, data: bytes, count: int) -> Any:
        """Run the pickled :class:`~passcheck.execution.process.Batch` ``blob`` of ``count`` jobs on
        ``data`` in the persistent worker: one message there, each job's reply back as soon as it is
        done, each waited for up to ``timeout`` seconds after the one before.

        Returns:
            the replies in order, as many as the jobs, or fewer ending with the :class:`Died` of the
            job that gave none (the jobs after it were not run; the worker is replaced for the next
            job, as after :meth:`run`); :data:`UNPICKLABLE` or a :class:`Died` when the worker did
            not take the batch at all (as :meth:`run`).
        """
        early, offset = self._hand_over(blob, data, self._dir, count)
        if early is not None:
            return early
        replies: list[Any] = []
        for _ in range(count):
            got = self._await(self._proc, self._conn, offset)
            if isinstance(got, Died):
                replies.append(got)
                break
            reply, offset = got  # offset: where the worker's log stood when the next job started
            replies.append(reply)
        return replies

    def _hand_over(self, blob: bytes, data: bytes, workdir: Path, count: int = 1) -> tuple[Any, int]:
        """Send a job (a batch of ``count``) to the persistent worker: (None, the log's offset when it was
        sent) once the worker took it, else (what :meth:`run` answers instead, 0).

        Raises:
            WorkerStartError: no worker could take it, twice.
        """
        for attempt in (1, 2):
            self._ensure_worker()
            offset = self._log.stat().st_size
            self._pending = count  # owed from the send on: an interrupt before the answers leaves them owed
            ack = self._submit(blob, data, workdir)
            if ack is not None or attempt == 2:
                break
            self._stop()  # the worker was already dead (killed between jobs): start a new one, once
        if ack != "started":
            self._pending = 0
        if ack is None:  # no worker took the job, twice: passcheck cannot run anything isolated here
            raise self._start_error()
        if ack == UNPICKLABLE:
            return UNPICKLABLE, 0
        if isinstance(ack, str) and ack.startswith("failed: "):  # the job itself did not fit under the memory cap
            self._stop()
            return Died(False, "ran out of memory taking the job", ack.removeprefix("failed: ")), 0
        if ack != "started":
            return Died(False, "", self._tail(0), not_started=True), 0
        return None, offset

    def run_forked(self, job: Any, data: bytes, workdir: Path) -> Any:
        """Run ``job`` (need not be importable) in a one-shot ``fork`` child: its reply or a :class:`Died`."""
        ctx = multiprocessing.get_context("fork")
        conn, child = ctx.Pipe()
        offset = self._log.stat().st_size
        with process.quiet_fork_warning():
            proc = ctx.Process(
                target=process.fork_main,
                args=(child, job, data, str(workdir), self.memory_mb, str(self._log)),
                daemon=True,
            )
            proc.start()
        child.close()
        try:
            return self._await(proc, conn, offset)
        finally:
            process.kill_group(proc)  # also what the child left running in its group
            proc.join(5)
            conn.close()

    def call(self, fn: Any, model: onnx.ModelProto, *args: Any, kept: bool = False) -> Any:
        """``fn(model, *args)`` in the worker (``fn`` importable by name, arguments picklable).

        ``kept``: ``fn`` does not change the model, so the worker may run it on the model it keeps
        under the same digest (:meth:`run_kept`: the bytes are not sent again) and keep it after.

        Returns:
            What ``fn`` returned.

        Raises:
            whatever ``fn`` raised, re-raised here;
            WorkerDied: the worker died (signal, exit) or gave no answer within ``timeout``.
        """
        if kept:
            digest, data = self._serialized(model)
            reply = self.run_kept(pickle.dumps(process.Call(fn, args, digest)), model, digest, data)
        else:
            reply = self.run(pickle.dumps(process.Call(fn, args)), payloads.whole(model).SerializeToString(), self._dir)
        if isinstance(reply, Died):
            raise WorkerDied(reply.run_error(self.timeout))
        if reply == UNPICKLABLE:
            raise TypeError(f"{fn!r} cannot be run in the isolation worker: it is not importable by name there")
        if "raised" in reply:
            raise reply["raised"]
        return reply["value"]

    @contextlib.contextmanager
    def fixed_models(self) -> Iterator[None]:
        """A block in which the models this worker is asked about do not change (the engine's
        forms and pass outputs while one subject is evaluated): :meth:`digest` serializes and
        hashes each model once, however often it is run or checked, and a pass output's digest is
        the one its worker sent with it. Outside the block every call serializes the model again."""
        self._fixed += 1
        try:
            yield
        finally:
            self._fixed -= 1
            if not self._fixed:
                self._digests.clear()

    def digest(self, model: onnx.ModelProto) -> bytes:
        """sha256 of ``model``'s serialized bytes (see :meth:`fixed_models`)."""
        return self._serialized(model)[0]

    def remember(self, model: onnx.ModelProto, digest: bytes, nbytes: int) -> None:
        """``model`` was made in the worker from bytes of sha256 ``digest`` (``nbytes`` long), and the
        worker keeps it (a pass output): inside :meth:`fixed_models` it is known by that digest."""
        self._held.keep(digest, None, nbytes)
        if self._fixed:
            self._digests[id(model)] = (model, digest)

    def run_kept(self, blob: bytes, model: onnx.ModelProto, digest: bytes, data: bytes | None = None) -> Any:
        """:meth:`run` of the job ``blob`` on ``model``, whose bytes (``data``, serialized here when
        None) are sent only when the worker does not keep the model under ``digest`` (the job
        then reads it with :func:`passcheck.execution.process.model_of`); a job answering
        ``{"missing": True}`` (the worker lost it) is sent again with the bytes."""
        if digest in self._held:
            self._held.keep(digest, None, self._held[digest][1])  # as the worker's find(): now the newest
            reply = self.run(blob, b"", self._dir)
            if not (isinstance(reply, dict) and reply.get("missing")):
                return reply
            self._held.drop(digest)
        data = payloads.whole(model).SerializeToString() if data is None else data
        reply = self.run(blob, data, self._dir)
        if isinstance(reply, dict) and not reply.get("missing"):
            self._held.keep(digest, None, len(data))
        return reply

    # -- internals -------------------------------------------------------------------------

    def _serialized(self, model: onnx.ModelProto) -> tuple[bytes, bytes | None]:
        """(sha256 of ``model``'s bytes, the bytes when they were serialized for it, else None)."""
        known = self._digests.get(id(model)) if self._fixed else None
        if known is not None and known[0] is model:
            return known[1], None
        data = payloads.whole(model).SerializeToString()
        digest = hashlib.sha256(data).digest()
        if self._fixed:
            self._digests[id(model)] = (model, digest)
        return digest, data

    def _submit(self, blob: bytes, data: bytes, workdir: Path) -> str | None:
        """Send a job; the worker's acknowledgement ("started" / "unpicklable"), None if it is dead."""
        try:
            self._conn.send((blob, data, str(workdir)))
            if not _poll(self._conn, _START_TIMEOUT):
                return None
            return self._conn.recv()
        except (EOFError, OSError):
            return None

    def _await(self, proc, conn, offset: int) -> Any:
        start = time.perf_counter()
        try:
            ready = _poll(conn, self.timeout)
            reply = conn.recv() if ready else None
        except (EOFError, OSError):
            ready, reply = True, None
        seconds = time.perf_counter() - start
        if reply is not None:
            if proc is self._proc:
                self._pending = max(0, self._pending - 1)
            return reply
        if not ready:
            process.kill_group(proc)
            proc.join(5)
            how = ""
        else:
            kill_tree(proc.pid)  # what the dead worker's job started (before join frees the pid)
            proc.join(5)
            how = process.death(proc.exitcode)
        if proc is self._proc:
            self._stop()
        return Died(not ready, how, self._tail(offset), seconds)

    def _launch(self) -> None:
        """Start a new worker process (the old one stopped), not waiting for it to be ready."""
        from passcheck.execution import template
        from passcheck.execution.child import WorkerProcess

        self._stop()
        # Forked from this process's pre-imported template, else a fresh interpreter started as
        # `python -c`; never through multiprocessing's spawn or forkserver, which re-run the
        # caller's __main__ (a user's script without a guard).
        args = (self.memory_mb, str(self._log), self.preload)
        try:
            self._proc = template.spawn(process.worker_main, args)
        except (OSError, EOFError):
            self._proc = WorkerProcess(process.worker_main, args)
        self._conn = self._proc.conn

    def _ensure_worker(self) -> None:
        if self._proc is None or (self._ready and not self._proc.is_alive()):
            self._launch()
        elif self._ready:
            return
        # started (here or by start()): its READY, or why it could not start, even if it already exited
        try:
            said = self._conn.recv() if _poll(self._conn, _START_TIMEOUT) else "failed: no answer"
        except (EOFError, OSError):
            said = f"failed: it {process.death(self._proc.exitcode)}" if not self._proc.is_alive() else "failed"
        if said != process.READY:
            self._stop()
            raise self._start_error(str(said).removeprefix("failed: "))
        self._ready = True

    def _stop(self) -> None:
        """Kill the worker and forget it; safe whether it runs, died, or never started."""
        if self._proc is not None:
            self.generation += 1
        if self._proc is not None and self._proc.pid is not None:  # pid None: start() never got a process
            if self._proc.exitcode is None:  # running, or dead but not yet reaped (its pid still ours)
                process.kill_group(self._proc)
            self._proc.join(5)
        if self._conn is not None:
            self._conn.close()
        self._proc = self._conn = None
        self._ready = False
        self._pending = 0
        self._held.clear()  # a new worker keeps no model

    def _start_error(self, why: str = "") -> WorkerStartError:
        tail = self._tail(0).strip().splitlines()
        last = f" ({why[:200]})" if why else f" (its last output: {tail[-1][:200]})" if tail else ""
        limit = f" under the {self.memory_mb} MiB memory limit (raise --memory-limit)" if self.memory_mb else ""
        return WorkerStartError(
            f"the isolation worker could not be started{limit}{last}; this is passcheck not starting, "
            "not a verdict on any pass: check that this interpreter can `import passcheck`, "
            "or run without isolation (--no-isolation, isolation=False)"
        )

    def _tail(self, offset: int) -> str:
        with open(self._log, "rb") as f:
            f.seek(offset)
            text = f.read().decode("utf-8", "replace").strip()
        return text[-_TAIL_CHARS:]


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
