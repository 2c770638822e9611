"""onnx's tools on a candidate form, run in the front door's isolation worker (M261).

A form a search makes (a hunt neighbour, a composed pair, a rewrite's intermediate model, a generated variant) is a
model no tool has met yet: onnx shape inference or onnx's reference evaluator may kill the process on it (SIGSEGV,
``abort()``). Inside :func:`within` (a front door's :class:`~passcheck.execution.Worker`: the hunt's, the generator's,
the mutation gate's) :func:`infer_shapes` and :func:`run_reference` run there, so such a death costs that one call:
:func:`infer_shapes` raises :class:`~passcheck.errors.WorkerDied` (every caller already reads a raise as "inference
fails on this form"), :func:`run_reference` gives a :class:`~passcheck.runtime.session.RunResult` whose ``error``
names the death, and the block's :attr:`Scope.deaths` lists each death (which tool, how) for the caller to report.
Restarts are bounded (M310): a form whose call killed the worker is remembered by its digest and not sent again in the
block, and after :data:`MAX_DEATHS_IN_A_ROW` deaths with no answer between them the block sends nothing until its next
:meth:`Scope.drain`; such a call is not made (no restart) and fails as a death does, listed in :attr:`Scope.skipped`.
The same :func:`run_reference` serves the engine's completion of subgraph and function values
(:func:`passcheck.runtime.completion.with_subscopes`), the reference engine and the oracles' tie-breaks, which ran
the evaluator in the front door's process before M409: a candidate form with an annotated value inside an If, a Loop
or a function no longer takes the hunt down with the evaluator.
Outside any block they run in this process (a rewrite's ``apply`` called directly by a library user;
:func:`passcheck.mutations.registry.iter_mutants` holds a block on the process's shared worker, M309).
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from passcheck.errors import WorkerDied, WorkerStartError

if TYPE_CHECKING:
    import onnx

    from passcheck.runtime.session import RunResult


@dataclasses.dataclass
class Scope:
    """One :func:`within` block: the worker its tools run in, and the deaths met there.

    Attributes:
        worker: a :class:`~passcheck.execution.Worker` (anything with its ``call``).
        deaths: ``"<tool> <how the worker ended>"`` (``onnx shape inference killed its process: SIGABRT``), one per
            call that killed the worker or ran past its timeout, in call order.
        inferred: :func:`infer_shapes`' results in this block (M301), by the model's digest and the flags.
        killers: the keys (model digest and tool) of calls that killed the worker: not sent again (M310).
        streak: deaths since the last answer or drain; at :data:`MAX_DEATHS_IN_A_ROW` no call is sent.
        skipped: ``"<tool> not run: …"``, one per call not made because of the two rules above, in call order.
        start_error: the :class:`~passcheck.errors.WorkerStartError` of a call whose worker could not start; no
            call is sent after it, and the block raises it at its end (a caller's broad ``except`` that reads a
            raise as "this form does not apply" would otherwise hide that nothing could run).
    """

    worker: Any
    deaths: list[str] = dataclasses.field(default_factory=list)
    inferred: Any = dataclasses.field(default_factory=lambda: _inferred_memo())
    killers: dict[bytes, str] = dataclasses.field(default_factory=dict)
    streak: int = 0
    skipped: list[str] = dataclasses.field(default_factory=list)
    start_error: WorkerStartError | None = None

    def drain(self) -> list[str]:
        """The deaths met since the last drain (the list is emptied; the run of deaths in a row starts again)."""
        out, self.deaths, self.streak = self.deaths, [], 0
        return out

    def drain_skipped(self) -> list[str]:
        """The calls not made since the last such drain (the list is emptied)."""
        out, self.skipped = self.skipped, []
        return out

    def refusal(self, key: bytes | None, tool: str) -> str | None:
        """Why a call of ``tool`` with ``key`` is not sent (recorded in :attr:`skipped`), or None to send it.

        Raises:
            WorkerStartError: the block's worker could not start before (:attr:`start_error`, raised again).
        """
        if self.start_error is not None:
            raise self.start_error
        if key is not None and key in self.killers:
            why = f"{tool} not run: this form killed the worker before ({self.killers[key]})"
        elif self.streak >= MAX_DEATHS_IN_A_ROW:
            why = f"{tool} not run: the worker died {self.streak} times in a row"
        else:
            return None
        self.skipped.append(why)
        return why

    def died(self, key: bytes | None, why: str) -> None:
        """A call with ``key`` killed the worker (``why``): recorded, remembered, the run of deaths one longer."""
        self.deaths.append(why)
        self.streak += 1
        if key is not None:
            self.killers[key] = why

    def answered(self) -> None:
        """The worker answered a call (a result or onnx's raise): the run of deaths ends."""
        self.streak = 0


#: Deaths in a row (no answer between) after which a block sends no more calls until its next drain (M310).
MAX_DEATHS_IN_A_ROW = 3


_SCOPE: contextvars.ContextVar[Scope | None] = contextvars.ContextVar("passcheck_isolated_tools", default=None)


@contextlib.contextmanager
def within(worker: Any) -> Iterator[Scope | None]:
    """A block in which :func:`infer_shapes` and :func:`run_reference` run in ``worker``'s process.

    ``worker``: a :class:`~passcheck.execution.Worker` (an ``IsolatedExecutor``); None or an object without
    ``call`` (the in-process executor) leaves the enclosing block's choice in force and yields its scope.
    Nested blocks on the same worker share one scope, so the outer caller sees every death.

    Raises:
        WorkerStartError: at the block's end, when a call in it found that the worker could not start
            (:attr:`Scope.start_error`), whatever the body did with that call's raise.
    """
    outer = _SCOPE.get()
    if not callable(getattr(worker, "call", None)) or (outer is not None and outer.worker is worker):
        yield outer
        return
    scope = Scope(worker)
    token = _SCOPE.set(scope)
    try:
        yield scope
        if scope.start_error is not None:
            raise scope.start_error
    finally:
        _SCOPE.reset(token)


@contextlib.contextmanager
def again(scope: Scope) -> Iterator[Scope]:
    """A block whose tools run in ``scope``'s worker with ``scope``'s memo, remembered forms and deaths: a
    :func:`within` block entered anew (a lazy caller, :func:`passcheck.mutations.registry.iter_mutants`, that holds
    no block between its steps)."""
    token = _SCOPE.set(scope)
    try:
        yield scope
        if scope.start_error is not None:
            raise scope.start_error
    finally:
        _SCOPE.reset(token)


def current() -> Scope | None:
    """The enclosing :func:`within` block's scope, or None (tools run in this process)."""
    return _SCOPE.get()


def _first_line(exc: BaseException) -> str:
    """How the worker ended (``killed its process: SIGSEGV``, ``gave no result after 5 s; …``): the first line of
    :meth:`~passcheck.execution.worker.Died.run_error`, which names onnxruntime whatever the job was."""
    text = str(exc).strip()
    return (text.splitlines()[0] if text else type(exc).__name__).removeprefix("onnxruntime ")


#: An initializer payload this large crosses the pipe back without its bytes (inference does not change initializers;
#: the caller's copy puts them back): a model's weights are not sent back per inference.
BIG_PAYLOAD = 1 << 20


def infer_job(
    model: onnx.ModelProto, check_type: bool, strict_mode: bool, data_prop: bool, slim: bool = False
) -> onnx.ModelProto:
    """``onnx.shape_inference.infer_shapes`` with these flags (importable by name: the worker's job); ``slim``: the
    ``raw_data`` of initializers of :data:`BIG_PAYLOAD` bytes or more cleared in the result."""
    import onnx

    done = onnx.shape_inference.infer_shapes(model, check_type=check_type, strict_mode=strict_mode, data_prop=data_prop)
    if slim:
        for t in done.graph.initializer:
            if len(t.raw_data) >= BIG_PAYLOAD:
                t.ClearField("raw_data")
    return done


#: Serialized bytes of slim inference results a block keeps (:class:`Scope`'s ``inferred``).
INFERRED_BYTES = 64 << 20


def _inferred_memo() -> Any:
    from passcheck.execution.process import Kept

    return Kept(INFERRED_BYTES)


def _memo_key(scope: Scope, model: onnx.ModelProto, flags: tuple[bool, bool, bool]) -> bytes | None:
    """The key of ``model``'s inference with ``flags`` in ``scope``'s memo: the sha256 of its bytes (the worker's
    :meth:`~passcheck.execution.Worker.digest`) and the flags; None for a worker that gives no digest."""
    digest = getattr(scope.worker, "digest", None)
    return digest(model) + bytes(flags) if callable(digest) else None


def _refilled(done: onnx.ModelProto, model: onnx.ModelProto) -> onnx.ModelProto:
    """``done`` (a slim :func:`infer_job` result) with the payloads it lacks put back from ``model``, by name, as
    ``model`` holds them (a payload hollowed in this process, :mod:`passcheck.execution.payloads`, stays hollow)."""
    had = {t.name: t.raw_data for t in model.graph.initializer if t.raw_data}
    for t in done.graph.initializer if had else ():
        if not t.raw_data and t.name in had:
            t.raw_data = had[t.name]
    return done


def infer_shapes(
    model: onnx.ModelProto, *, check_type: bool = False, strict_mode: bool = False, data_prop: bool = False
) -> onnx.ModelProto:
    """``onnx.shape_inference.infer_shapes(model, …)`` (a new model; ``model`` untouched), in the worker of the
    enclosing :func:`within` block, else in this process.

    In a block, a model whose bytes and flags the block's worker already inferred is not sent again: its result is
    read back from the block's memo (M301; ``onnx.shape_inference`` is a function of the model's bytes and the
    flags: IR.md's model is its serialized proto). Only results are kept; a call that raised is run again.

    Raises:
        onnx.shape_inference.InferenceError, onnx.checker.ValidationError, …: what onnx raises (re-raised here);
        WorkerDied: inference killed the worker or ran past its timeout (recorded in :attr:`Scope.deaths`), or was
            not sent: this model and flags killed it before, or the worker died :data:`MAX_DEATHS_IN_A_ROW` times in
            a row (recorded in :attr:`Scope.skipped`; M310).
        WorkerStartError: the block's worker could not start (kept in :attr:`Scope.start_error`: the block raises it
            again at its end).
    """
    scope = _SCOPE.get()
    if scope is None:
        return infer_job(model, check_type, strict_mode, data_prop)
    import onnx

    key = _memo_key(scope, model, (check_type, strict_mode, data_prop))
    if (slim := scope.inferred.find(key)) is not None:
        return _refilled(onnx.ModelProto.FromString(slim), model)
    if why := scope.refusal(key, "onnx shape inference"):
        raise WorkerDied(why)
    try:  # kept: the worker keeps the model by digest, so inferring it again sends no bytes
        done = scope.worker.call(infer_job, model, check_type, strict_mode, data_prop, True, kept=True)
    except WorkerDied as exc:
        scope.died(key, f"onnx shape inference {_first_line(exc)}")
        raise
    except WorkerStartError as exc:
        scope.start_error = exc
        raise
    except Exception:
        scope.answered()
        raise
    scope.answered()
    if key is not None:
        slim = done.SerializeToString()  # before the refill: the memo holds no big payload
        scope.inferred.keep(key, slim, len(slim))
    return _refilled(done, model)


def run_reference(model: onnx.ModelProto, feeds: Mapping[str, Any], worker: Any = None) -> RunResult:
    """:func:`passcheck.runtime.reference.run_reference` of ``model`` on ``feeds`` in ``worker`` (default: the
    enclosing :func:`within` block's; in this process when there is none).

    Returns:
        Its :class:`~passcheck.runtime.session.RunResult`; when the evaluator killed the worker, one with no
        outputs and ``error`` ``"the reference evaluator killed its process: SIGSEGV"`` (or ``gave no result after
        N s; …``), recorded in the enclosing block's :attr:`Scope.deaths`; in a block whose rules (M310) refuse
        the call, one whose ``error`` says why it was not run (recorded in :attr:`Scope.skipped`).

    Raises:
        WorkerStartError: ``worker`` could not start (kept in the enclosing block's :attr:`Scope.start_error`).
    """
    from passcheck.runtime.reference import run_reference as run
    from passcheck.runtime.session import RunResult

    scope = _SCOPE.get()
    worker = worker if callable(getattr(worker, "call", None)) else scope.worker if scope is not None else None
    if worker is None:
        return run(model, feeds)
    ours = scope if scope is not None and scope.worker is worker else None
    digest = getattr(worker, "digest", None)
    key = digest(model) + b"reference" if ours is not None and callable(digest) else None
    if ours is not None and (why := ours.refusal(key, "the reference evaluator")):
        return RunResult({}, {}, error=why)
    try:
        done = worker.call(run, model, dict(feeds))
    except WorkerStartError as exc:
        if scope is not None:
            scope.start_error = exc
        raise
    except WorkerDied as exc:
        why = f"the reference evaluator {_first_line(exc)}"
        if ours is not None:
            ours.died(key, why)
        elif scope is not None:
            scope.deaths.append(why)
        return RunResult({}, {}, error=why)
    if ours is not None:
        ours.answered()
    return done


__all__ = ["MAX_DEATHS_IN_A_ROW", "Scope", "again", "current", "infer_job", "infer_shapes", "run_reference", "within"]
