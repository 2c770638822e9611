"""Run passes in a child process so a crashing, hanging or memory-hungry pass costs one cell.

:class:`IsolatedExecutor` is an engine executor (``(adapter, model, workdir) → PassOutcome``,
see :data:`passcheck.engine.Executor`) on a :class:`passcheck.execution.Worker`: one persistent
worker process, reused across cells, so the tools a pass imports (onnxruntime …) are imported
once. What one cell can cost, and how it is recorded:

- the worker dies (segfault, ``os.abort()``, ``std::terminate``, SIGKILL): ``crashed``, error
  ``killed by SIGSEGV`` and the last lines the worker wrote to stdout/stderr during that cell;
- no answer within ``timeout`` seconds: the worker is killed, ``timeout``;
- the worker's address space is capped at ``memory_mb`` (``RLIMIT_AS``); an allocation beyond it
  raises ``MemoryError`` in Python / ``std::bad_alloc`` in C++: ``out-of-memory`` (also when the
  C++ error aborts the worker).

After any of these a fresh worker is started for the next cell. :meth:`IsolatedExecutor.run_model`
runs models (onnxruntime sessions on feeds) in the same worker (:mod:`passcheck.runtime.isolated`),
so a model that crashes onnxruntime costs one run; the engine uses it for every form and every
pass output. :meth:`~passcheck.execution.Worker.call` runs any importable function on a model there
(``annotations`` observes a model's values with it). :func:`executor_for` is how every front door
(the API, the CLI commands, :mod:`passcheck.testing`, the pytest plugin) gets its executor: the
caller's, a new isolated one closed at the end, or in process when isolation is turned off.

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
import hashlib
import pickle
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from passcheck.execution import (
    DEFAULT_MEMORY_MB,
    DEFAULT_TIMEOUT,
    OOM_MARKERS,
    UNPICKLABLE,
    Died,
    Worker,
    payloads,
    pool,
    process,
)
from passcheck.passes._base import PassAdapter, PassOutcome, run_in_process
from passcheck.runtime import isolated_tools
from passcheck.runtime.isolated import RunCache, prefetch, run_model

if TYPE_CHECKING:
    import onnx

    from passcheck.runtime.session import RunResult

__all__ = ["DEFAULT_MEMORY_MB", "DEFAULT_TIMEOUT", "IsolatedExecutor", "executor_for"]


class IsolatedExecutor(Worker):
    """Run each pass in a worker process with a wall-time and a memory limit.

    Args:
        timeout: seconds one pass may run; None for no limit.
        memory_mb: address-space cap of the worker (RLIMIT_AS) in MiB; None for no cap.
        preload: case/pass module files the worker imports at start (see module docs).
        warm: tool modules the worker's template imports ahead (:class:`~passcheck.execution.Worker`;
            :func:`imports_of` the passes to run).

    Use as a context manager or call :meth:`close` to stop the worker.
    """

    #: Told (``on_step(what)``) which form, pass and step the engine runs next: a front door's progress.
    on_step: Any = None

    def __init__(
        self,
        timeout: float | None = DEFAULT_TIMEOUT,
        memory_mb: int | None = DEFAULT_MEMORY_MB,
        preload: Sequence[str | Path] = (),
        warm: Sequence[str] = (),
    ):
        super().__init__(timeout, memory_mb, preload, warm)
        self._forked: set[str] = set()  # adapter ids the worker could not unpickle
        self._runs = RunCache()
        #: The onnx checker's verdicts here, kept across subjects (:class:`~passcheck.oracles.validity.Checker`).
        self.verdicts = Verdicts()
        self._hollowing = 0  # depth of holding() blocks
        self._held_keys: list[str] = []  # payloads hollowed inside them (:mod:`passcheck.execution.payloads`)

    def reset(self) -> None:
        """Drop one block's state before the pool hands this executor to the next block
        (:mod:`passcheck.execution.pool`): the cache of recent runs, the checker's verdicts, the pass ids
        run in forked children, a front door's ``on_step``; the worker process and what it keeps stay."""
        super().reset()
        self._runs = RunCache()
        self.verdicts = Verdicts()
        self._forked.clear()
        self.__dict__.pop("on_step", None)
        if self._hollowing or self._held_keys:
            raise RuntimeError("reset inside a holding() block")

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """A block (the engine's evaluation of one subject) in which the outputs of passes the worker
        keeps are hollowed (:func:`passcheck.execution.payloads.hollow`: their big initializer
        payloads held once per content, not once per form); released when the outermost block ends."""
        self._hollowing += 1
        try:
            yield
        finally:
            self._hollowing -= 1
            if not self._hollowing:
                keys, self._held_keys = self._held_keys, []
                payloads.release(keys)

    def __call__(self, adapter: PassAdapter, model: onnx.ModelProto, workdir: Path) -> PassOutcome:
        data = payloads.whole(model).SerializeToString()
        job = _PassJob(adapter)
        try:
            blob = pickle.dumps(job)
        except Exception:  # noqa: BLE001 - lambdas, closures, unpicklable state
            blob = None
        if blob is None or adapter.id in self._forked:
            return self._outcome(adapter, self.run_forked(job, data, workdir), held=False)
        with self._hollowed([job]) as jobs:
            reply = self.run(pickle.dumps(jobs[0]), data, workdir)
            if reply == UNPICKLABLE:
                self._forked.add(adapter.id)
                return self._outcome(adapter, self.run_forked(job, data, workdir), held=False)
            return self._outcome(adapter, reply)

    @contextlib.contextmanager
    def _hollowed(self, jobs: list[_PassJob]) -> Iterator[list[_PassJob]]:
        """Inside :meth:`holding`: ``jobs`` told to hollow their outputs in the worker
        (:func:`passcheck.execution.payloads.hollow_bytes`: the big payloads this process holds not
        sent back), those payloads pinned until the block ends (the replies adopted); else ``jobs``."""
        if not self._hollowing:
            yield jobs
            return
        pinned = payloads.pin()
        known = set(pinned)  # one set for a batch's jobs: what an earlier output sent, a later one need not
        try:
            yield [_PassJob(j.adapter, (payloads.MIN_BYTES, known)) for j in jobs]
        finally:
            payloads.release(pinned)

    def run_passes(
        self, adapters: Sequence[PassAdapter], model: onnx.ModelProto, workdirs: Sequence[Path]
    ) -> list[PassOutcome | None]:
        """Each of ``adapters`` on ``model`` (adapter i in folder ``workdirs[i]``), in the persistent
        worker in one round trip (:meth:`~passcheck.execution.Worker.run_batch`): the same outcome
        per pass as :meth:`__call__` gives, each pass with its own timeout and limits. None for a pass
        not run here, which the caller runs with :meth:`__call__`: the passes after one that killed
        the worker (that one is ``crashed``/``timeout``, as alone), and all of them when a pass
        cannot be sent to the worker (it then runs in a forked child)."""
        if any(a.id in self._forked for a in adapters):
            return [None] * len(adapters)
        with self._hollowed([_PassJob(a) for a in adapters]) as jobs:
            try:
                blob = pickle.dumps(process.Batch([(j, str(w)) for j, w in zip(jobs, workdirs, strict=True)]))
            except Exception:  # noqa: BLE001 - lambdas, closures, unpicklable state: one by one
                return [None] * len(adapters)
            replies = self.run_batch(blob, payloads.whole(model).SerializeToString(), len(adapters))
            if not isinstance(replies, list):  # not taken: unpicklable there, or no worker; one by one says which
                return [None] * len(adapters)
            outcomes: list[PassOutcome | None] = [self._outcome(a, r) for a, r in zip(adapters, replies)]
        return outcomes + [None] * (len(adapters) - len(outcomes))

    @property
    def pass_folder(self) -> Path:
        """The folder :func:`passcheck.engine.evaluate` runs this executor's passes in (emptied
        before each pass; inside :attr:`folder`, removed by :meth:`close`): one folder for every
        subject, because creating and removing a folder per subject costs tens of milliseconds on a
        busy filesystem (measured by ``bench/hunt.py``)."""
        return self.folder / "pass"

    def run_model(
        self, model: onnx.ModelProto, feeds: dict[str, Any], expose: Sequence[str] = (), shapes: Sequence[str] = ()
    ) -> RunResult:
        """:func:`passcheck.runtime.observe.run_observing` in the worker (``expose`` whole, the
        shape and element type of ``shapes``): a model that crashes or hangs onnxruntime gives a
        RunResult with the error, never the end of the run (:func:`passcheck.runtime.isolated.run_model`,
        answered from the cache of recent runs when it can)."""
        return run_model(self, self._runs, model, feeds, expose, shapes)

    def prefetch(
        self,
        model: onnx.ModelProto,
        feeds_list: Sequence[dict[str, Any]],
        expose: Sequence[str] = (),
        shapes: Sequence[str] = (),
        also: tuple[Any, Any] | None = None,
    ) -> int:
        """Make the :meth:`run_model` runs of ``model`` on each of ``feeds_list`` in one round trip to
        the worker, kept for the calls that follow, with the question ``also`` about the same model
        (:func:`passcheck.runtime.isolated.prefetch`); the runs made."""
        return prefetch(self, self._runs, model, feeds_list, expose, shapes, also)

    def _outcome(self, adapter: PassAdapter, reply: Any, held: bool = True) -> PassOutcome:
        """The outcome of a pass job's reply; ``held``: the persistent worker ran it (and keeps its output)."""
        if isinstance(reply, Died):
            if reply.not_started:
                return PassOutcome(
                    adapter.id,
                    "crashed",
                    error="the pass worker could not be started: " + reply.tail,
                    versions=adapter.versions(),
                )
            if reply.timed_out:
                status, error = "timeout", f"no result after {self.timeout:g} s; the pass was killed"
            else:
                status, error = "crashed", f"the pass {reply.how}"
            if status == "crashed" and any(m in reply.tail for m in OOM_MARKERS):
                status = "out-of-memory"
                error += f" (allocation failed under the {self.memory_mb} MiB limit)"
            return PassOutcome(
                adapter.id, status, error=error + reply.tail_text(), versions=adapter.versions(), seconds=reply.seconds
            )
        fields = dict(reply)
        model_bytes, digest = fields.pop("model"), fields.pop("digest", None)
        sent, nbytes = fields.pop("payloads", None), fields.pop("nbytes", None)
        if model_bytes is not None:
            import onnx

            fields["model"] = onnx.ModelProto.FromString(model_bytes)
            if sent is not None:  # hollowed in the worker (_hollowed): its payloads held here once per content
                self._held_keys += payloads.adopt(fields["model"], sent)
            if digest is not None and held:  # the worker keeps the output: runs and checker calls on it send no bytes
                if self._hollowing and sent is None:  # read here for its structure: its big payloads held once
                    fields["model"], keys = payloads.hollow(fields["model"])
                    self._held_keys += keys
                self.remember(fields["model"], digest, nbytes or len(model_bytes))
        if fields["status"] == "out-of-memory":
            fields["error"] = f"{fields['error']} (allocation failed under the {self.memory_mb} MiB limit)"
        return PassOutcome(**fields)


class Verdicts(collections.OrderedDict):
    """The checker verdicts an :class:`IsolatedExecutor` keeps: ``(full_check, sha256 of the model
    bytes) → message or None``, the :data:`MAX_VERDICTS` most recently stored (the oldest dropped)."""

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        if len(self) > MAX_VERDICTS:
            self.popitem(last=False)


#: Checker verdicts an executor keeps (a few hundred bytes each).
MAX_VERDICTS = 4096


class _PassJob:
    """A worker job: run one pass; the reply fields of :class:`PassOutcome` (model as bytes).

    ``hollow``: ``(min_bytes, known)``: the output is sent hollowed
    (:func:`passcheck.execution.payloads.hollow_bytes`), with ``payloads`` (those of keys not in
    ``known``) and ``nbytes`` (its whole size) in the reply; its ``digest`` is that of the whole output.
    """

    def __init__(self, adapter: PassAdapter, hollow: tuple[int, set[str]] | None = None):
        self.adapter = adapter
        self.hollow = hollow

    @property
    def label(self) -> str:
        """``pass ID``: what ``PASSCHECK_TIMINGS`` records this job as."""
        return f"pass {self.adapter.id}"

    def __call__(self, data: bytes, workdir: str) -> dict[str, Any]:
        import onnx

        adapter = self.adapter
        digest = None
        try:
            outcome = adapter.run(onnx.ModelProto.FromString(data), Path(workdir))
            out = outcome.model.SerializeToString() if outcome.model is not None else None
            if out is not None:  # kept here by its digest: the parent runs and checks it without sending it back
                digest = hashlib.sha256(out).digest()
                process.KEPT.keep(digest, outcome.model, len(out))
        except MemoryError:
            return {
                "pass_id": adapter.id,
                "status": "out-of-memory",
                "error": "MemoryError",
                "model": None,
                "versions": {},
                "seconds": 0.0,
            }
        status = outcome.status
        if status == "crashed" and outcome.error and any(m in outcome.error for m in OOM_MARKERS):
            status = "out-of-memory"
        reply = {
            "pass_id": outcome.pass_id,
            "status": status,
            "error": outcome.error,
            "model": out,
            "digest": digest,
            "versions": outcome.versions,
            "seconds": outcome.seconds,
            "input_mutated": outcome.input_mutated,
        }
        if out is not None and self.hollow is not None:
            min_bytes, known = self.hollow
            start, cpu = time.perf_counter(), time.process_time()
            reply["model"], reply["payloads"] = payloads.hollow_bytes(out, known, min_bytes, payloads.RECOGNISED)
            reply["nbytes"] = len(out)
            process.record(HOLLOW_LABEL, start, cpu)  # passcheck's own work inside the pass's job
        return reply


#: The ``PASSCHECK_TIMINGS`` line of a pass job's hollowing (:func:`passcheck.execution.payloads.hollow_bytes`):
#: passcheck's work inside the job's seconds, which ``bench/check_mutations.py`` takes out of the tools' time.
HOLLOW_LABEL = "passcheck: hollow reply"


@contextlib.contextmanager
def executor_for(
    executor: Any = None,
    *,
    isolation: bool = True,
    timeout: float | None = None,
    memory_mb: int | None = DEFAULT_MEMORY_MB,
    preload: Sequence[str | Path] = (),
    warm: Sequence[str] = (),
):
    """The executor a front door runs passes and models with.

    ``executor`` when one is given (the caller owns it; an isolating one's worker also holds the block below,
    M311); otherwise an :class:`IsolatedExecutor`
    with these limits (``timeout`` seconds per pass or model run, None for :data:`DEFAULT_TIMEOUT`)
    and ``warm`` tool modules, leased from the process's pool for the block (:func:`passcheck.execution.pool.leased`:
    one an earlier block of this process returned, with the same memory cap, preloaded files and environment, its
    worker process still running; else a new one), inside whose block onnx shape inference and the reference
    evaluator on a candidate form run in its worker too (:func:`passcheck.runtime.isolated_tools.within`); with
    ``isolation=False``, :func:`passcheck.passes.run_in_process` (a crash then ends the calling process).
    """
    if executor is not None:
        with isolated_tools.within(executor):  # the caller's worker: its block too (none for an in-process one)
            yield executor
    elif not isolation:
        yield run_in_process
    else:
        made = lambda: IsolatedExecutor(memory_mb=memory_mb, preload=preload)  # noqa: E731
        with pool.leased(made, pool.key(IsolatedExecutor, memory_mb, preload)) as ex:  # one kept from before (M529)
            ex.timeout, ex.warm = timeout or DEFAULT_TIMEOUT, tuple(warm)
            with isolated_tools.within(ex):  # onnx's tools on the forms this door makes run there too (M261)
                yield ex
