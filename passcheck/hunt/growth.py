"""The time oracle: how a pass's CPU time grows with the size of the model it is given.

A pass may be right on every model and still unusable: its time explodes on a valid model that is only larger
(:mod:`passcheck.hunt.enlarge`). :func:`probe` runs one pass on one model enlarged ``n``, ``2n`` and ``4n`` times,
in an isolation worker (:class:`passcheck.execution.Worker`: its time limit and memory cap), and :func:`judge`
fits the growth; the result is a :class:`Growth` record (data, never an exception), with every figure measured.

How, and why each threshold (a finding must survive a machine loaded 10-25 by other jobs):

- **CPU, not wall**: each run is timed inside the worker by ``resource.getrusage`` (user + system seconds of the
  worker and of the commands it waited for, every thread included) around the pass's ``apply`` alone; a loaded
  machine stretches wall time by the load, CPU time far less (only cache and frequency effects).
- :data:`REPEATS` = 3 runs per size, the minimum kept: interference only ever adds time, so the minimum is the
  closest to the pass's own cost (the argument of Python's ``timeit`` documentation).
- :data:`FLOOR` = 0.2 CPU seconds: ``n`` is the first power of two at which one run costs at least this (k doubled
  from 1, at most :data:`MAX_K`). Below it, a pass's fixed costs (session creation, imports done lazily on first
  use, the model's copy) and allocator and GC jitter of a few milliseconds are a large part of a run, and a ratio of
  two such times says nothing about growth; at 0.2 s a 20 ms jitter moves an exponent by at most
  ``log2(1.1 / 0.9) = 0.29``.
- **The exponent** is ``log(t(4n) / t(2n)) / log(size(4n) / size(2n))``, times per :func:`enlarge.size` (nodes +
  constant elements): 1 for a pass linear in its input, 2 for quadratic, about 1.1 for ``n log n``; a fixed cost
  only lowers it (never a false alarm). :data:`BOUND` = 1.6 is above the midpoint 1.5 of linear and quadratic, and
  above what the jitter at the floor can make of a linear pass (1 + 0.29); a quadratic pass whose fixed cost is a
  quarter of its time at ``2n`` still shows ``log2((1 + 3 * 4) / 4) = 1.70``. A burst in the last size alone could
  still reach it, so the whole span ``n → 4n`` must also reach :data:`SPAN_BOUND` = 1.4 (a linear series with one
  such burst spans about 1; a quadratic one 2).
- **Confirmation**: a series judged superlinear is measured again at ``2n`` and ``4n`` (:data:`REPEATS` more runs,
  minimum over all six) and must still reach :data:`BOUND`; a one-off burst cannot make a finding.
- **A timeout at the largest size** (no result within the worker's ``timeout`` seconds, wall) is reported as such,
  verdict ``timeout``, with the wall time of ``2n`` and the lower bound on the exponent it implies.

Verdicts: ``superlinear`` and ``timeout`` are findings; ``linear`` (measured, below the bounds), and ``unchecked``
(why: below the floor at :data:`MAX_K`, the pass did not succeed at some size, the kind does not apply) are not.
"""

from __future__ import annotations

import dataclasses
import math
import pickle
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from passcheck.execution import UNPICKLABLE, Died, Worker
from passcheck.hunt import enlarge
from passcheck.signature import Signature

if TYPE_CHECKING:
    import onnx

    from passcheck.passes import PassAdapter

REPEATS = 3
FLOOR = 0.2
BOUND = 1.6
SPAN_BOUND = 1.4
#: The largest factor tried while looking for ``n`` (a chain of 4096 copies of a pattern).
MAX_K = 4096
#: Seconds one run may take in the worker (wall); beyond it the run is a timeout.
TIMEOUT = 60.0
#: Model size (:func:`enlarge.size`) beyond which no larger model is built.
MAX_SIZE = 1 << 25

#: The oracle name in a growth finding's :class:`~passcheck.signature.Signature`.
ORACLE = "growth"
SUPERLINEAR, TIMEOUT_VERDICT, LINEAR, UNCHECKED = "superlinear", "timeout", "linear", "unchecked"
FINDINGS = (SUPERLINEAR, TIMEOUT_VERDICT)


@dataclasses.dataclass(frozen=True)
class Point:
    """One size: factor ``k``, model ``size``, the CPU seconds of each run, wall seconds of the fastest; status of
    the last run (a :class:`~passcheck.passes.PassOutcome` status, or ``timeout``)."""

    k: int
    size: int
    cpu: tuple[float, ...]
    wall: float
    status: str

    @property
    def best(self) -> float:
        """The minimum CPU seconds (module docs)."""
        return min(self.cpu) if self.cpu else math.inf


@dataclasses.dataclass(frozen=True)
class Growth:
    """The verdict on one pass, model and enlarging kind: ``verdict`` (module docs), ``exponent`` (None when not
    measured), ``points`` as measured (confirmation runs merged into their sizes), ``why`` in one line."""

    pass_id: str
    kind: str
    verdict: str
    why: str
    exponent: float | None = None
    span_exponent: float | None = None
    points: tuple[Point, ...] = ()

    @property
    def finding(self) -> bool:
        return self.verdict in FINDINGS

    @property
    def signature(self) -> Signature:
        """``PASS|growth|VERDICT||enlarge-KIND``: the oracle ``growth``, no op types (the cost is the graph's)."""
        return Signature(self.pass_id, ORACLE, self.verdict, (), f"enlarge-{self.kind}")

    def documented(self) -> dict[str, Any] | None:
        """The documented entry (:mod:`passcheck.hunt.documented`) whose key or ``match`` this finding meets."""
        from passcheck.hunt import documented

        sig = self.signature
        for entry in documented.entries():
            if sig.key in entry.get("keys", ()):
                return entry
            rules = entry.get("match")
            for rule in rules if isinstance(rules, list) else [rules] if rules else []:
                if documented.matches(rule, sig.to_json(), self.why):
                    return entry
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "pass": self.pass_id,
            "kind": self.kind,
            "verdict": self.verdict,
            "why": self.why,
            "exponent": None if self.exponent is None else round(self.exponent, 3),
            "span_exponent": None if self.span_exponent is None else round(self.span_exponent, 3),
            "points": [
                {
                    "k": p.k,
                    "size": p.size,
                    "cpu": [round(c, 4) for c in p.cpu],
                    "wall": round(p.wall, 4),
                    "status": p.status,
                }
                for p in self.points
            ],
        }


def exponent(a: Point, b: Point) -> float:
    """``log(best(b) / best(a)) / log(size(b) / size(a))``; ``b`` larger."""
    return math.log(b.best / a.best) / math.log(b.size / a.size)


def judge(
    pass_id: str,
    kind: str,
    points: list[Point],
    bound: float = BOUND,
    span_bound: float = SPAN_BOUND,
    timeout: float = TIMEOUT,
) -> Growth:
    """The verdict on ``points`` (sizes ``n``, ``2n``, ``4n`` in order; the last may have ``status`` timeout, after
    ``timeout`` seconds of wall), without running anything.

    Raises:
        ValueError: fewer than three points.
    """
    if len(points) < 3:
        raise ValueError(f"three sizes are needed, got {len(points)}")
    small, mid, big = points[-3:]
    figures = ", ".join(f"k={p.k} size={p.size}: {p.best:.3f} s" for p in (small, mid) if p.cpu)
    if big.status == "timeout":
        lower = math.log(timeout / mid.wall) / math.log(big.size / mid.size) if mid.wall > 0 else None
        why = (
            f"no result in {timeout:g} s (wall) at k={big.k} size={big.size}; {figures} CPU, "
            f"{mid.wall:.3f} s wall at k={mid.k}"
        )
        return Growth(pass_id, kind, TIMEOUT_VERDICT, why, lower, None, tuple(points))
    bad = [p for p in points if p.status not in ("changed", "unchanged")]
    if bad:
        return Growth(pass_id, kind, UNCHECKED, f"the pass was {bad[0].status} at k={bad[0].k}", points=tuple(points))
    if mid.best < FLOOR:
        return Growth(
            pass_id,
            kind,
            UNCHECKED,
            f"below the {FLOOR:g} s floor: {mid.best:.3f} s at k={mid.k}",
            points=tuple(points),
        )
    e, span = exponent(mid, big), exponent(small, big)
    figures = "; ".join(f"k={p.k} size={p.size}: {p.best:.3f} s CPU" for p in (small, mid, big))
    verdict = SUPERLINEAR if e >= bound and span >= span_bound else LINEAR
    why = f"time ~ size^{e:.2f} (span {span:.2f}; bound {bound:g}/{span_bound:g}): {figures}"
    return Growth(pass_id, kind, verdict, why, e, span, tuple(points))


class _TimedPass:
    """A worker job: the pass's ``apply`` on the model, timed in CPU (module docs)."""

    def __init__(self, adapter: PassAdapter):
        self.adapter = adapter

    @property
    def label(self) -> str:
        return f"growth {self.adapter.id}"

    def __call__(self, data: bytes, workdir: str) -> dict[str, Any]:
        import resource

        import onnx

        from passcheck.passes import PassDeclined

        model = onnx.ModelProto.FromString(data)
        reason = self.adapter.why_not(model)
        if reason:
            return {"status": "unavailable", "error": reason, "cpu": 0.0, "wall": 0.0}

        def used() -> float:
            me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
            return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

        status, error = "changed", None
        start, cpu = time.perf_counter(), used()
        try:
            self.adapter.apply(model, Path(workdir))
        except PassDeclined as exc:
            status, error = "declined", str(exc)[:500]
        except Exception as exc:  # noqa: BLE001 - the tool's failure is a status here
            status, error = "crashed", f"{type(exc).__name__}: {exc}"[:500]
        return {"status": status, "error": error, "cpu": used() - cpu, "wall": time.perf_counter() - start}


def run_once(worker: Worker, adapter: PassAdapter, model: onnx.ModelProto) -> dict[str, Any]:
    """One timed run of ``adapter`` on ``model`` in ``worker`` (a forked child when the adapter cannot be sent):
    ``{"status", "error", "cpu", "wall"}``, status ``timeout`` when the worker gave no answer in time."""
    job = _TimedPass(adapter)
    data = model.SerializeToString()
    workdir = worker.folder / "growth"
    workdir.mkdir(exist_ok=True)
    try:
        blob = pickle.dumps(job)
    except Exception:  # noqa: BLE001 - lambdas, closures: a forked child
        blob = None
    reply = worker.run(blob, data, workdir) if blob is not None else UNPICKLABLE
    if reply == UNPICKLABLE:
        reply = worker.run_forked(job, data, workdir)
    if isinstance(reply, Died):
        status = "timeout" if reply.timed_out else "crashed"
        return {"status": status, "error": reply.how or "timeout", "cpu": math.inf, "wall": reply.seconds}
    return reply


def _point(worker, adapter, model, k: int, runs: int) -> Point:
    cpus, walls, status = [], [], "changed"
    for _ in range(runs):
        r = run_once(worker, adapter, model)
        status = r["status"]
        if status not in ("changed", "unchanged"):
            return Point(k, enlarge.size(model), tuple(cpus), r["wall"], status)
        cpus.append(r["cpu"])
        walls.append(r["wall"])
    return Point(k, enlarge.size(model), tuple(cpus), min(walls), status)


def probe(
    worker: Worker,
    adapter: PassAdapter,
    model: onnx.ModelProto,
    kind: str,
    *,
    max_k: int = MAX_K,
    repeats: int = REPEATS,
    bound: float = BOUND,
) -> Growth:
    """The growth verdict of ``adapter`` on ``model`` enlarged by ``kind`` (module docs); the worker's ``timeout``
    is the per-run limit (:data:`TIMEOUT` by :func:`new_worker`).

    Raises:
        ValueError: an unknown kind.
    """
    built: dict[int, Any] = {}

    def at(k: int):
        if k not in built:
            built[k] = enlarge.enlarge(model, kind, k)
        return built[k]

    def fail(why: str, points=()) -> Growth:
        return Growth(adapter.id, kind, UNCHECKED, why, points=tuple(points))

    if at(1) is None or at(2) is None:
        return fail(f"{kind} does not apply to this model")
    _point(worker, adapter, at(1), 1, 1)  # first-use costs (lazy imports, caches) out of every measured run
    k = 1
    while True:
        p = _point(worker, adapter, at(k), k, 1)
        if p.status == "timeout" or p.best >= FLOOR:
            break
        if p.status not in ("changed", "unchanged"):
            return fail(f"the pass was {p.status} at k={k}", (p,))
        if 4 * k > max_k or enlarge.size(at(k)) * 4 > MAX_SIZE:
            return fail(f"below the {FLOOR:g} s floor up to k={k}: {p.best:.3f} s", (p,))
        k *= 2
        if at(k) is None:
            return fail(f"{kind} gave no valid model at k={k}", (p,))
    points: list[Point] = []
    if p.status != "timeout":
        for kk in (k, 2 * k, 4 * k):
            if at(kk) is None:
                return fail(f"{kind} gave no valid model at k={kk}", points)
            points.append(_point(worker, adapter, at(kk), kk, repeats))
            if points[-1].status == "timeout":
                p, k = points.pop(), kk
                break
    if p.status == "timeout":  # the timeout is the largest size, the two below it measured
        if k < 4:
            return Growth(adapter.id, kind, TIMEOUT_VERDICT, f"no result in {worker.timeout:g} s at k={k}", points=(p,))
        done = {q.k: q for q in points}
        points = [done.get(kk) or _point(worker, adapter, at(kk), kk, repeats) for kk in (k // 4, k // 2)] + [p]
        return judge(adapter.id, kind, points, bound, timeout=worker.timeout or TIMEOUT)
    verdict = judge(adapter.id, kind, points, bound)
    if verdict.verdict != SUPERLINEAR:
        return verdict
    again = [_point(worker, adapter, at(q.k), q.k, repeats) for q in points[1:]]
    if any(q.status not in ("changed", "unchanged") for q in again):
        return verdict  # a timeout or failure on the second series: the first series's figures stand
    merged = [points[0]] + [dataclasses.replace(q, cpu=q.cpu + r.cpu) for q, r in zip(points[1:], again, strict=True)]
    return judge(adapter.id, kind, merged, bound)


def new_worker(timeout: float = TIMEOUT, memory_mb: int | None = None, warm: tuple[str, ...] = ()) -> Worker:
    """A worker for :func:`probe` (close it, or use it as a context manager)."""
    from passcheck.execution import DEFAULT_MEMORY_MB

    return Worker(timeout=timeout, memory_mb=memory_mb or DEFAULT_MEMORY_MB, warm=warm)
