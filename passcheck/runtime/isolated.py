"""Model runs in an isolation worker: the job, and the cache of recent runs.

:func:`run_model` runs :func:`passcheck.runtime.observe.run_observing` in a
:class:`passcheck.execution.Worker`, so a model that crashes or hangs onnxruntime gives a
:class:`~passcheck.runtime.session.RunResult` with the error, never the end of the run.
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import pickle
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from passcheck.execution import Died
from passcheck.execution.process import model_of
from passcheck.runtime.profile import TensorMeta
from passcheck.runtime.session import RunResult

if TYPE_CHECKING:
    import onnx

    from passcheck.execution import Worker


def run_model(
    worker: Worker,
    cache: RunCache,
    model: onnx.ModelProto,
    feeds: dict[str, Any],
    expose: Sequence[str] = (),
    shapes: Sequence[str] = (),
) -> RunResult:
    """Run ``model`` on ``feeds`` in ``worker`` exposing ``expose`` whole and the shape and
    element type of ``shapes``; a run of the same model bytes on equal feeds observing the same
    values is answered from ``cache``; a run that killed or timed out the worker is not kept. The
    model is known by its digest (:meth:`~passcheck.execution.Worker.digest`: serialized and hashed
    once inside :meth:`~passcheck.execution.Worker.fixed_models`) and its bytes are not sent to a
    worker that keeps it (:meth:`~passcheck.execution.Worker.run_kept`: it ran it or made it)."""
    digest = worker.digest(model)
    key = cache.key(b"", feeds, expose, shapes, digest=digest)
    if (kept := cache.get(key)) is not None:
        return kept
    job = pickle.dumps(ModelRun(dict(feeds), list(expose), list(shapes), digest))
    reply = worker.run_kept(job, model, digest)
    if isinstance(reply, Died) or not isinstance(reply, dict) or "run" not in reply:
        died = reply if isinstance(reply, Died) else Died(False, "", "", not_started=True)
        return RunResult({}, {}, error=died.run_error(worker.timeout))
    run = _with_feeds(reply["run"], feeds, reply.get("fed", False))
    cache.put(key, run)
    return cache.get(key) or run


def prefetch(
    worker: Worker,
    cache: RunCache,
    model: onnx.ModelProto,
    feeds_list: Sequence[dict[str, Any]],
    expose: Sequence[str] = (),
    shapes: Sequence[str] = (),
    also: tuple[Any, Any] | None = None,
) -> int:
    """Run ``model`` on each feed dict of ``feeds_list`` not in ``cache`` yet, all in one worker job
    (one round trip instead of one per binding), and keep the runs in ``cache``, where the
    :func:`run_model` calls that follow (one per binding, as before) find them: each run is the
    :func:`~passcheck.runtime.observe.run_observing` call :func:`run_model` makes, in the same
    order, in the same worker. A job that dies (a run that crashes or hangs onnxruntime) keeps
    nothing: the calls that follow run one by one and that run costs its own call, as without it.
    Fewer than two runs to make: nothing is done. ``also``: ``(fn, answer)``, a question about the
    same model asked after the runs in the same job (the checker's:
    :meth:`~passcheck.oracles.validity.Checker.pending`), ``answer(fn(model))`` called with what it
    returned; not called when the job died or ``fn`` raised (the caller then asks it alone).
    Returns the runs kept."""
    digest = worker.digest(model)
    todo = [f for f in feeds_list if not cache.has(cache.key(b"", f, expose, shapes, digest=digest))]
    if len(todo) < 2:
        return 0
    fn, answer = also or (None, None)
    job = pickle.dumps(ModelRuns([dict(f) for f in todo], list(expose), list(shapes), digest, also=fn))
    reply = worker.run_kept(job, model, digest)
    if not (isinstance(reply, dict) and "runs" in reply):
        return 0
    for f, run, fed in zip(todo, reply["runs"], reply["fed"], strict=True):
        cache.put(cache.key(b"", f, expose, shapes, digest=digest), _with_feeds(run, f, fed))
    if answer is not None and "also" in reply:
        answer(reply["also"])
    return len(todo)


class ModelRun:
    """A worker job: run the model it is sent (or keeps) on ``feeds`` (see :func:`run_model`)."""

    #: What ``PASSCHECK_TIMINGS`` records this job as (session creation and run).
    label = "model run"

    def __init__(
        self, feeds: dict[str, Any], expose: list[str], shapes: Sequence[str] = (), digest: bytes | None = None
    ):
        self.feeds, self.expose, self.shapes = feeds, expose, list(shapes)
        self.digest = digest  # sha256 of the model bytes: the worker's kept model and session are found by it

    def __call__(self, data: bytes, workdir: str) -> dict[str, Any]:
        from passcheck.runtime.observe import run_observing

        model = model_of(data, self.digest)
        if model is None:
            return {"missing": True}
        # an intermediate whose shape only is read travels as its TensorMeta: copying every
        # activation through the pipe cost more than the run itself (bench/annotations.py)
        kw = {"expose": self.expose, "shapes": self.shapes, "model_key": self.digest}
        run = run_observing(model, self.feeds, **kw)
        return {"run": run, "fed": _strip_feeds(run, self.feeds)}


class ModelRuns(ModelRun):
    """A worker job: :class:`ModelRun` on each feed dict of a list, in order, then ``also(model)``
    when given (see :func:`prefetch`)."""

    label = "model runs"

    def __init__(
        self,
        feeds: list[dict[str, Any]],
        expose: list[str],
        shapes: Sequence[str] = (),
        digest: bytes | None = None,
        also: Any = None,
    ):
        super().__init__(feeds, expose, shapes, digest)  # type: ignore[arg-type]
        self.also = also

    def __call__(self, data: bytes, workdir: str) -> dict[str, Any]:
        from passcheck.runtime.observe import run_observing

        model = model_of(data, self.digest)
        if model is None:
            return {"missing": True}
        kw = {"expose": self.expose, "shapes": self.shapes, "model_key": self.digest}
        runs = [run_observing(model, feeds, **kw) for feeds in self.feeds]
        reply: dict[str, Any] = {
            "runs": runs,
            "fed": [_strip_feeds(run, feeds) for run, feeds in zip(runs, self.feeds, strict=True)],
        }
        if getattr(self, "also", None) is not None:
            try:
                reply["also"] = self.also(model)
            except Exception:  # noqa: BLE001 - not answered here: the parent asks it alone, and sees it raise
                pass
        return reply


def _strip_feeds(run: RunResult, feeds: dict[str, Any]) -> bool:
    """In the worker: drop from ``run.observed`` the feeds it ends with (the very values it was
    given, in their order, as :func:`~passcheck.runtime.observe.run_observing` adds them), so
    they are not pickled back to the parent, which has them; whether it did (else ``run`` is
    unchanged)."""
    observed, n = run.observed, len(feeds)
    if not n or len(observed) < n:
        return False
    tail = list(observed)[-n:]
    if tail != list(feeds) or any(observed[k] is not feeds[k] for k in tail):
        return False
    for k in tail:
        del observed[k]
    return True


def _with_feeds(run: RunResult, feeds: dict[str, Any], fed: bool) -> RunResult:
    """In the parent: ``run`` with the feeds :func:`_strip_feeds` dropped put back (the caller's
    arrays, as a run in this process observes them), when ``fed``."""
    if fed:
        run.observed.update(feeds)
    return run


class RunCache:
    """Recent model runs, by (sha256 of the model bytes, digest of the feeds, exposed names), up
    to ``max_bytes`` of arrays in all (least recently used dropped first). :meth:`get` hands out a
    copy whose dicts the caller may change."""

    def __init__(self, max_bytes: int = 256 << 20):
        self.max_bytes, self.size = max_bytes, 0
        self._runs: collections.OrderedDict[tuple, tuple[RunResult, int]] = collections.OrderedDict()

    @staticmethod
    def key(
        data: bytes,
        feeds: dict[str, Any],
        expose: Sequence[str],
        shapes: Sequence[str] = (),
        digest: bytes | None = None,
    ) -> tuple:
        """The cache key of a run; ``digest``: sha256 of ``data`` when the caller has it."""
        h = hashlib.sha256()
        for name in sorted(feeds):
            h.update(name.encode() + b"\0")
            _digest_value(h, feeds[name])
        return digest or hashlib.sha256(data).digest(), h.digest(), tuple(expose), tuple(shapes)

    def has(self, key: tuple) -> bool:
        """Whether a run is kept under ``key``."""
        return key in self._runs

    def get(self, key: tuple) -> RunResult | None:
        if key not in self._runs:
            return None
        self._runs.move_to_end(key)
        run = self._runs[key][0]
        return dataclasses.replace(run, outputs=dict(run.outputs), observed=dict(run.observed))

    def put(self, key: tuple, run: RunResult) -> None:
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
        h.update(
            np.ascontiguousarray(value).view(np.uint8).tobytes()
            if value.dtype != object
            else repr(value.tolist()).encode()
        )
    elif isinstance(value, (list, tuple)):
        h.update(f"{type(value).__name__}{len(value)}[".encode())
        for v in value:
            _digest_value(h, v)
        h.update(b"]")
    else:
        h.update(repr((type(value).__name__, value)).encode())


def _nbytes(value: Any) -> int:
    if type(value) is TensorMeta:
        return 64  # no data (looking up its absent nbytes costs an AttributeError per value)
    if isinstance(value, (list, tuple)):
        return sum(_nbytes(v) for v in value)
    return int(getattr(value, "nbytes", 64))
