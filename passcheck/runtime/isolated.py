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
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from passcheck.execution import Died
from passcheck.execution.process import Kept, model_of
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
    worker that keeps it (:meth:`~passcheck.execution.Worker.run_kept`: it ran it or made it); the
    feeds likewise, by :func:`feeds_digest` (:data:`_KEPT_FEEDS`: one binding's feeds serve every
    form and pass output of a subject, so they cross the pipe once per worker, not once per run)."""
    digest = worker.digest(model)
    fed = feeds_digest(feeds)
    key = cache.key(b"", feeds, expose, shapes, digest=digest, fed=fed)
    if (kept := cache.get(key)) is not None:
        return kept
    held = _held_feeds(worker)
    send = fed not in held
    reply = worker.run_kept(_model_run(feeds, fed, send, expose, shapes, digest), model, digest)
    if not send and isinstance(reply, dict) and reply.get("missing_feeds"):  # the worker no longer has them
        held.drop(fed)
        send = True
        reply = worker.run_kept(_model_run(feeds, fed, send, expose, shapes, digest), model, digest)
    if isinstance(reply, dict) and "run" in reply:  # as the worker's store: sent ones kept, found ones now the newest
        held.keep(fed, None, _feeds_nbytes(feeds) if send else held[fed][1])
    if isinstance(reply, Died) or not isinstance(reply, dict) or "run" not in reply:
        died = reply if isinstance(reply, Died) else Died(False, "", "", not_started=True)
        return RunResult({}, {}, error=died.run_error(worker.timeout))
    run = _with_feeds(reply["run"], feeds, reply.get("fed", False))
    cache.put(key, run)
    return cache.get(key) or run


def feeds_digest(feeds: dict[str, Any]) -> bytes:
    """sha256 of a feed dict: each name (sorted) and value (:func:`_digest_value`: dtype, shape and
    bytes of an array; sequences element by element), the run cache's feed key and the name of the
    feeds a worker keeps (:data:`_KEPT_FEEDS`)."""
    h = hashlib.sha256()
    for name in sorted(feeds):
        h.update(name.encode() + b"\0")
        _digest_value(h, feeds[name])
    return h.digest()


#: Bytes of feed arrays a worker keeps by :func:`feeds_digest` (the newest kept whatever its size).
FEEDS_KEPT_BYTES = 64 << 20


def feeds_budget(memory_mb: int | None) -> int:
    """Bytes of feeds a worker capped at ``memory_mb`` MiB keeps: :data:`FEEDS_KEPT_BYTES`, at most a
    sixteenth of the cap."""
    return FEEDS_KEPT_BYTES if not memory_mb else min(FEEDS_KEPT_BYTES, (memory_mb << 20) // 16)


#: In the worker: the feed dicts it was sent last, by :func:`feeds_digest` (:class:`~passcheck.execution.process.Kept`;
#: made at its first job, its budget from the worker's address-space cap).
_KEPT_FEEDS: list[Kept] = []
#: In the parent: per worker, (its generation, the digests and sizes of the feeds that process keeps): both sides
#: see the same keeps in the same order; a worker that lost them answers ``missing_feeds`` and is sent them.
_HELD_FEEDS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _held_feeds(worker: Worker) -> Kept:
    """The parent's list of the feeds ``worker``'s current process keeps (empty for a new process)."""
    generation = getattr(worker, "generation", None)
    entry = _HELD_FEEDS.get(worker)
    if entry is None or entry[0] != generation:
        entry = _HELD_FEEDS[worker] = (generation, Kept(feeds_budget(getattr(worker, "memory_mb", None))))
    return entry[1]


def _worker_feeds() -> Kept:
    """In the worker: its store of feeds (:data:`_KEPT_FEEDS`), the budget :func:`feeds_budget` of its ``RLIMIT_AS``."""
    if not _KEPT_FEEDS:
        import resource

        cap = resource.getrlimit(resource.RLIMIT_AS)[0]
        _KEPT_FEEDS.append(Kept(feeds_budget(None if cap == resource.RLIM_INFINITY else cap >> 20)))
    return _KEPT_FEEDS[0]


def _feeds_nbytes(feeds: dict[str, Any]) -> int:
    return sum(_nbytes(v) for v in feeds.values())


def _model_run(
    feeds: dict[str, Any], fed: bytes, send: bool, expose: Sequence[str], shapes: Sequence[str], digest: bytes
) -> bytes:
    """The pickled :class:`ModelRun`: ``feeds`` themselves when ``send``, else only their digest ``fed``."""
    return pickle.dumps(ModelRun(dict(feeds) if send else None, list(expose), list(shapes), digest, fed=fed))


def _feeds_of(feeds: dict[str, Any] | None, fed: bytes | None) -> dict[str, Any] | None:
    """In the worker: the feeds of a job, kept under ``fed`` when sent, else the ones kept under it
    (None when not kept: the job answers ``missing_feeds``)."""
    if feeds is not None:
        if fed is not None:
            _worker_feeds().keep(fed, feeds, _feeds_nbytes(feeds))
        return feeds
    return _worker_feeds().find(fed)


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
    feds = [feeds_digest(f) for f in feeds_list]
    todo = [(f, d) for f, d in zip(feeds_list, feds) if not cache.has(cache.key(b"", f, expose, shapes, digest, d))]
    if len(todo) < 2:
        return 0
    fn, answer = also or (None, None)
    held = _held_feeds(worker)
    sent = [d not in held for _, d in todo]

    def job() -> bytes:
        feeds = [dict(f) if s else None for (f, _), s in zip(todo, sent)]
        return pickle.dumps(ModelRuns(feeds, list(expose), list(shapes), digest, also=fn, fed=[d for _, d in todo]))

    reply = worker.run_kept(job(), model, digest)
    if isinstance(reply, dict) and reply.get("missing_feeds"):  # the worker no longer has some: all are sent
        for _, d in todo:
            held.drop(d)
        sent = [True] * len(todo)
        reply = worker.run_kept(job(), model, digest)
    if not (isinstance(reply, dict) and "runs" in reply):
        return 0
    for (f, d), s in zip(todo, sent):  # in the worker's order: sent ones kept, found ones now the newest
        held.keep(d, None, _feeds_nbytes(f) if s or d not in held else held[d][1])
    for (f, d), run, fed in zip(todo, reply["runs"], reply["fed"], strict=True):
        cache.put(cache.key(b"", f, expose, shapes, digest=digest, fed=d), _with_feeds(run, f, fed))
    if answer is not None and "also" in reply:
        answer(reply["also"])
    return len(todo)


class ModelRun:
    """A worker job: run the model it is sent (or keeps) on ``feeds`` (see :func:`run_model`);
    ``feeds`` None: the ones the worker keeps under ``fed`` (:func:`feeds_digest`), else the job
    answers ``{"missing_feeds": True}``."""

    #: What ``PASSCHECK_TIMINGS`` records this job as (session creation and run).
    label = "model run"

    def __init__(
        self,
        feeds: dict[str, Any] | None,
        expose: list[str],
        shapes: Sequence[str] = (),
        digest: bytes | None = None,
        fed: bytes | None = None,
    ):
        self.feeds, self.expose, self.shapes = feeds, expose, list(shapes)
        self.digest = digest  # sha256 of the model bytes: the worker's kept model and session are found by it
        self.fed = fed  # feeds_digest(feeds): the worker keeps them under it, or has them when feeds is None

    def __call__(self, data: bytes, workdir: str) -> dict[str, Any]:
        from passcheck.runtime.observe import run_observing

        model = model_of(data, self.digest)
        if model is None:
            return {"missing": True}
        feeds = _feeds_of(self.feeds, self.fed)
        if feeds is None:
            return {"missing_feeds": True}
        # an intermediate whose shape only is read travels as its TensorMeta: copying every
        # activation through the pipe cost more than the run itself (bench/annotations.py)
        kw = {"expose": self.expose, "shapes": self.shapes, "model_key": self.digest}
        run = run_observing(model, feeds, **kw)
        return {"run": run, "fed": _strip_feeds(run, feeds)}


class ModelRuns(ModelRun):
    """A worker job: :class:`ModelRun` on each feed dict of a list, in order, then ``also(model)``
    when given (see :func:`prefetch`)."""

    label = "model runs"

    def __init__(
        self,
        feeds: list[dict[str, Any] | None],
        expose: list[str],
        shapes: Sequence[str] = (),
        digest: bytes | None = None,
        also: Any = None,
        fed: list[bytes] | None = None,
    ):
        super().__init__(feeds, expose, shapes, digest)  # type: ignore[arg-type]
        self.also = also
        self.fed = fed  # feeds_digest of each feed dict (see ModelRun)

    def __call__(self, data: bytes, workdir: str) -> dict[str, Any]:
        from passcheck.runtime.observe import run_observing

        model = model_of(data, self.digest)
        if model is None:
            return {"missing": True}
        feds = self.fed or [None] * len(self.feeds)
        feeds_list = [_feeds_of(f, d) for f, d in zip(self.feeds, feds, strict=True)]
        if any(f is None for f in feeds_list):
            return {"missing_feeds": True}
        kw = {"expose": self.expose, "shapes": self.shapes, "model_key": self.digest}
        runs = [run_observing(model, feeds, **kw) for feeds in feeds_list]
        reply: dict[str, Any] = {
            "runs": runs,
            "fed": [_strip_feeds(run, feeds) for run, feeds in zip(runs, feeds_list, strict=True)],
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
        fed: bytes | None = None,
    ) -> tuple:
        """The cache key of a run; ``digest``: sha256 of ``data``, ``fed``: :func:`feeds_digest` of
        ``feeds``, when the caller has them."""
        fed = fed or feeds_digest(feeds)
        return digest or hashlib.sha256(data).digest(), fed, tuple(expose), tuple(shapes)

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
