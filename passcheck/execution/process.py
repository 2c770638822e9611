"""What runs inside an isolation worker, and how its death is read.

The worker (``spawn``: a fresh interpreter) and a one-shot ``fork`` child both call
:func:`limit` first: Ctrl-C ignored (the parent decides), output to the worker log, the address
space capped (``RLIMIT_AS``), SIGKILL when the parent dies, a process group of its own. A job is
any picklable callable ``job(model_bytes, workdir) -> reply``; the parent unpickles nothing it
did not send.

Timings: with ``PASSCHECK_TIMINGS=FILE`` in the environment, every worker and forked child
appends one JSON line per job to FILE, ``{"job": LABEL, "seconds": S, "cpu": C, "pid": P, "end": E}``: the
wall seconds the job took inside the worker (the tool's work plus reading the model bytes and
writing the reply, not the pipe) and the CPU seconds the worker's process spent meanwhile (all its
threads, ``time.process_time``), E the wall clock (``time.time``) when the job ended, LABEL the
job's ``label`` attribute or its class name
(``bench/check_mutations.py`` reads them to tell the tools' time from passcheck's own). A worker
template writes one such line, ``import NAME``, per module it imports for its caller's passes
(:func:`passcheck.execution.template.prestart`): what that job's first pass would have paid. The
parent writes one, ``reference run``, per run of onnx's reference evaluator it makes itself
(:data:`passcheck.runtime.reference.REFERENCE_LABEL`): a tool's run outside any worker.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import pickle
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

from passcheck._procs import kill_tree
from passcheck.execution import payloads

#: Error text that means an allocation failed under the memory cap.
OOM_MARKERS = ("MemoryError", "bad_alloc", "bad allocation", "Failed to allocate memory", "out of memory")


def kill_group(proc) -> None:
    """Kill a worker, every process it started and every process left in its group (commands a
    pass started, children those started, reparented or not)."""
    kill_tree(proc.pid)
    if proc.is_alive():
        proc.kill()


def death(exitcode: int | None) -> str:
    """How a worker ended, as a phrase: ``killed its process: SIGSEGV`` / ``ended its process (exit code 1)``."""
    if exitcode is not None and exitcode < 0:
        try:
            name = signal.Signals(-exitcode).name
        except ValueError:
            name = f"signal {-exitcode}"
        return f"killed its process: {name}"
    return f"ended its process (exit code {exitcode})"


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


#: glibc's ``mallopt`` parameters (``malloc.h``) and the values a worker sets: every block comes from
#: the heap (``M_MMAP_MAX`` 0: no block is a mapping of its own, however large; glibc still maps
#: memory when the heap cannot grow), blocks up to 32 MiB already did (glibc's own ceiling for its
#: adaptive threshold on 64-bit), and up to 256 MiB of free heap top is kept.
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD, _M_MMAP_MAX = -1, -3, -4
MMAP_THRESHOLD, TRIM_THRESHOLD = 32 << 20, 256 << 20


def keep_freed_memory() -> bool:
    """In the worker: let glibc's malloc reuse the memory a run freed instead of handing it back.

    A worker runs one model after another, each in a new onnxruntime session whose arena and
    tensors are allocated again. With glibc's defaults a block above the adaptive mmap threshold
    is a fresh mapping, and a free heap top above the trim threshold goes back to the system, so
    each run faulted in the same memory again (a profiled ResNet-50 run: ~6,200 minor page faults,
    ~20 ms of system CPU, ~10 % of the run). Fixed thresholds (:data:`MMAP_THRESHOLD`,
    :data:`TRIM_THRESHOLD`) keep it for the next run; what a worker holds counts against its
    ``RLIMIT_AS`` cap as before. Blocks above 32 MiB (a pass output of ~100 MB serialized, read and
    pickled; its sessions' copies) were still mappings of their own, mapped and faulted in afresh
    each time: a ResNet-50 ``ort:basic`` output and its two runs cost the worker ~538,000 minor
    faults and 1.35 s of system CPU (of 2.4 s); with no block mapped on its own (``M_MMAP_MAX`` 0)
    next to none and 0.14 s (session 29, load 16-20; the same peak resident set, 0.80-0.90 GB).

    Returns:
        Whether all three were set (False off glibc: no ``mallopt``, or it refused).
    """
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return (
        bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))
        & bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
        & bool(mallopt(_M_MMAP_MAX, 0))
    )


def limit(memory_mb: int | None, log_path: str) -> None:
    """In the child: ignore Ctrl-C (the parent decides), send output to the log, cap memory, keep
    freed memory for the next run (:func:`keep_freed_memory`)."""
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
    keep_freed_memory()


class Kept(collections.OrderedDict):
    """Models kept by the sha256 digest of their bytes, the most recently used last, up to
    :data:`KEPT_BYTES` of serialized bytes in all (the oldest dropped first; the newest is kept
    whatever its size). In the worker (:data:`KEPT`) the values are the ModelProtos; the parent
    (:class:`~passcheck.execution.Worker`) keeps the same digests and sizes with no model, so it
    knows which models the worker holds without asking: both sides see the same calls in the same
    order, and the worker answers ``{"missing": True}`` when they disagree."""

    def __init__(self, max_bytes: int | None = None):
        super().__init__()
        self.max_bytes = KEPT_BYTES if max_bytes is None else max_bytes
        self.size = 0

    def keep(self, digest: bytes, model: Any, nbytes: int) -> None:
        """Keep ``model`` (``nbytes`` serialized) under ``digest``, dropping the oldest beyond the budget."""
        if digest in self:
            self.size -= self.pop(digest)[1]
        self[digest] = (model, nbytes)
        self.size += nbytes
        while self.size > self.max_bytes and len(self) > 1:
            self.size -= self.popitem(last=False)[1][1]

    def drop(self, digest: bytes) -> None:
        if digest in self:
            self.size -= self.pop(digest)[1]

    def clear(self) -> None:
        super().clear()
        self.size = 0

    def find(self, digest: bytes | None) -> Any:
        """The model kept under ``digest`` (now the most recently used), or None."""
        if digest is None or digest not in self:
            return None
        self.move_to_end(digest)
        return self[digest][0]


#: Serialized bytes of models a worker keeps (two ResNet-50s with folded weights, ~100 MB each).
KEPT_BYTES = 256 << 20


def kept_budget(memory_mb: int | None) -> int:
    """Bytes of models a worker capped at ``memory_mb`` MiB keeps: :data:`KEPT_BYTES`, at most an
    eighth of the cap (the newest model is kept whatever its size, as the worker always held the
    model it ran last)."""
    return KEPT_BYTES if not memory_mb else min(KEPT_BYTES, (memory_mb << 20) // 8)


#: In the worker: the models it was sent or made last (:class:`Kept`).
KEPT = Kept()


def model_of(data: bytes, digest: bytes | None) -> Any:
    """In the worker: the model of a job, parsed from ``data`` and kept under ``digest``, or, when
    ``data`` is empty, the one kept under ``digest``; None when it is not kept (the job then
    answers ``{"missing": True}`` and the parent sends the bytes)."""
    import onnx

    if data:
        model = onnx.ModelProto.FromString(data)
        if digest:
            KEPT.keep(digest, model, len(data))
        return model
    return KEPT.find(digest)


class Call:
    """A job: ``fn(model, *args)``; the reply carries the value or the exception, or ``missing``
    when it was sent no bytes and the worker does not keep the model named by ``digest``."""

    def __init__(self, fn: Any, args: tuple, digest: bytes | None = None):
        self.fn, self.args, self.digest = fn, args, digest

    @property
    def label(self) -> str:
        """``call NAME``: what ``PASSCHECK_TIMINGS`` records this job as."""
        return f"call {getattr(self.fn, '__name__', type(self.fn).__name__)}"

    def __call__(self, data: bytes, workdir: str) -> dict[str, Any]:
        model = model_of(data, self.digest)
        if model is None:
            return {"missing": True}
        try:
            return {"value": self.fn(model, *self.args)}
        except Exception as exc:  # noqa: BLE001 - re-raised in the parent
            try:
                pickle.dumps(exc)
            except Exception:  # noqa: BLE001 - an exception that cannot travel: its text does
                exc = RuntimeError(f"{type(exc).__name__}: {exc}")
            return {"raised": exc}


def timed(job: Any, data: bytes, workdir: str) -> Any:
    """``job(data, workdir)``; its seconds appended to ``$PASSCHECK_TIMINGS`` when that is set (see
    module docs; a file that cannot be written costs the line, never the job's reply)."""
    if not os.environ.get("PASSCHECK_TIMINGS"):
        return job(data, workdir)
    start, cpu = time.perf_counter(), time.process_time()
    try:
        return job(data, workdir)
    finally:
        record(str(getattr(job, "label", type(job).__name__)), start, cpu)


def record(label: str, start: float, cpu: float) -> None:
    """Append the line of a job ``label`` begun at ``time.perf_counter()`` ``start`` and
    ``time.process_time()`` ``cpu`` to ``$PASSCHECK_TIMINGS`` when that is set (module docs)."""
    path = os.environ.get("PASSCHECK_TIMINGS")
    if not path:
        return
    line = {
        "job": label,
        "seconds": time.perf_counter() - start,
        "cpu": time.process_time() - cpu,
        "pid": os.getpid(),
        "end": time.time(),  # where the job lies on the run's timeline (bench/check_mutations.py --timeline)
    }
    with contextlib.suppress(OSError), open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(line) + "\n")


#: The worker finished starting and takes jobs; anything else it sends first is why it could not.
READY = "ready"
#: Text of an ImportError that means the loader ran out of address space, not a missing package.
_MAP_FAILURE = ("failed to map segment", "Cannot allocate memory")


def starved(exc: BaseException) -> bool:
    """Whether ``exc`` is the memory cap speaking (MemoryError, or a shared object the loader could
    not map under ``RLIMIT_AS``) rather than a missing package or a job's own error."""
    text = str(exc)
    return isinstance(exc, MemoryError) or any(m in text for m in _MAP_FAILURE + OOM_MARKERS)


def _start(preload: list[str]) -> None:
    for tool in ("onnx", "onnxruntime"):  # imported before the first job: its timeout is the job's, not an import's
        try:
            __import__(tool)
        except ImportError as exc:
            if starved(exc):
                raise
    if preload:
        from passcheck.user_modules import load_path

        for p in preload:
            load_path(p)
    pickle.loads(pickle.dumps(list(range(4096))))  # a job's first unpickling must not be where the cap shows


def worker_main(conn, memory_mb: int | None, log_path: str, preload: list[str]) -> None:
    """The persistent worker: import the tools and the preloaded module files, say :data:`READY`
    (or, when start-up fails, ``"failed: <error>"`` and exit), then answer jobs
    (``(pickled job, model bytes, workdir)`` → ``"started"`` or ``"unpicklable"``, then the reply;
    a :class:`Batch`: one ``(reply, log size)`` per job)."""
    limit(memory_mb, log_path)
    KEPT.max_bytes = kept_budget(memory_mb)  # the parent's list of what this worker keeps uses the same budget
    payloads.RECOGNISED.max_bytes = kept_budget(memory_mb) // 2  # payloads hashed before, known again by comparison
    try:
        _start(preload)
    except BaseException as exc:  # noqa: BLE001 - the parent raises WorkerStartError with this text
        with contextlib.suppress(BaseException):
            conn.send(f"failed: {type(exc).__name__}: {exc}"[:500])
        return
    conn.send(READY)
    while True:
        try:
            blob, data, workdir = conn.recv()
        except (EOFError, OSError):
            return
        try:
            job = pickle.loads(blob)
        except Exception as exc:  # noqa: BLE001 - the parent falls back to a forked child
            conn.send(f"failed: {type(exc).__name__}: {exc}"[:500] if starved(exc) else "unpicklable")
            continue
        conn.send("started")
        if isinstance(job, Batch):
            for sub, sub_workdir in job.jobs:
                reply = timed(sub, data, sub_workdir)
                conn.send((reply, _log_size()))
            continue
        conn.send(timed(job, data, workdir))


class Batch:
    """A worker job of jobs ``[(job, workdir), …]`` run one after the other on the same model
    bytes, each answered as soon as it is done with where the worker's log then stood (the next
    job's output starts there: a job that kills the worker is shown its own output only); see
    :meth:`passcheck.execution.Worker.run_batch`. One message to the worker instead of one round
    trip per job."""

    def __init__(self, jobs: list[tuple[Any, str]]):
        self.jobs = jobs


def _log_size() -> int:
    """In the worker: the size of its log (stdout and stderr, flushed)."""
    import sys

    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    try:
        return os.fstat(1).st_size
    except OSError:
        return 0


def fork_main(conn, job: Any, data: bytes, workdir: str, memory_mb: int | None, log_path: str) -> None:
    """A one-shot forked child: one job, same limits."""
    limit(memory_mb, log_path)
    conn.send(timed(job, data, workdir))


@contextlib.contextmanager
def quiet_fork_warning():
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*fork.*", category=DeprecationWarning)
        yield
