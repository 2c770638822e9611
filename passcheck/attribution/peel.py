"""What one onnxruntime transformer's fault hides: peel the failures of an ``ort:<level>`` session one layer at a
time (:func:`peel`).

A transformer that breaks a model can mask another one that runs after it on the same nodes: it removes or rewrites
the nodes the second one would have matched, so every run shows the first fault only. onnxruntime applies the
transformers of a level in a fixed order, and ``InferenceSession(..., disabled_optimizers=[...])`` switches any of
them off by name, so the first fault's transformers can be held off and the same form optimized again: what fails
then is what the first fault hid. Each layer is named by the same bisection as :mod:`passcheck.attribution.ort`, and
each answer is checked by its effect. Every session runs in the isolated worker (``runner``), so a transformer that
kills its process costs one worker.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

#: Layers :func:`peel` names at most (each costs one bisection).
MAX_LAYERS = 3


@dataclasses.dataclass(frozen=True)
class Failure:
    """How an optimized session went wrong against the unoptimized one on the same feeds.

    Attributes:
        kind: ``died`` (the worker died: a signal or the time limit), ``rejected`` (onnxruntime raised while
            creating or running the session) or ``wrong-result`` (an output differs from ``ORT_DISABLE_ALL``'s:
            shape, dtype or values beyond the numeric oracle's tolerance).
        outputs: the differing outputs (``wrong-result`` only), sorted.
        text: one line saying what happened.
    """

    kind: str
    outputs: tuple[str, ...]
    text: str

    @property
    def key(self) -> tuple[str, tuple[str, ...]]:
        """What stays the same while the same fault shows (messages name generated nodes, so they do not count)."""
        return self.kind, self.outputs


@dataclasses.dataclass(frozen=True)
class Layer:
    """One fault: ``failure`` as the session showed it with ``held`` disabled; ``names`` the transformers whose
    disabling (beside ``held``) makes it go away (empty when none of the level's known transformers does)."""

    failure: Failure
    held: tuple[str, ...]
    names: tuple[str, ...]


@dataclasses.dataclass
class Peeled:
    """Outcome of :func:`peel`: ``layers`` in the order they showed (the first is the finding's own fault);
    ``sessions`` opened; ``note`` says why it stopped."""

    layers: list[Layer]
    sessions: int
    note: str

    def hidden(self) -> list[Layer]:
        """The faults the first one hid."""
        return self.layers[1:]


def run_optimized(model, level: str, disabled: Sequence[str], feeds: Mapping[str, Any]) -> dict[str, Any]:
    """The outputs of ``model`` run by onnxruntime at ``level`` (``disabled`` … ``all``, see
    :data:`passcheck.passes.ort_optimizer.LEVELS`) with the transformers ``disabled`` off, on ``feeds``: output name
    → value. Runs a session in this process: call it through :meth:`IsolatedExecutor.call`.

    Raises:
        RuntimeError (onnxruntime's exception types): the session cannot be created or run.
    """
    import onnxruntime as ort

    from passcheck.passes.ort_optimizer import LEVELS
    from passcheck.runtime.feeds import session_inputs

    so = ort.SessionOptions()
    so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, LEVELS[level])
    so.log_severity_level = 4
    so.intra_op_num_threads = 1
    sess = ort.InferenceSession(
        model.SerializeToString(), so, providers=["CPUExecutionProvider"], disabled_optimizers=list(disabled) or None
    )
    accepted = session_inputs(sess)
    names = [o.name for o in sess.get_outputs()]
    return dict(zip(names, sess.run(names, {k: v for k, v in feeds.items() if k in accepted})))


def judge(
    model, level: str, disabled: Sequence[str], feeds: Mapping[str, Any], expected: Mapping[str, Any], runner
) -> Failure | None:
    """The :class:`Failure` of ``model`` at ``level`` with ``disabled`` off against ``expected`` (the unoptimized
    outputs on ``feeds``), or None when it runs and agrees. ``runner(fn, model, *args)``: e.g.
    :meth:`IsolatedExecutor.call`."""
    from passcheck.errors import WorkerDied
    from passcheck.oracles.numeric import compare, output_dtypes

    try:
        got = runner(run_optimized, model, level, list(disabled), dict(feeds))
    except WorkerDied as exc:
        return Failure("died", (), _line(exc))
    except Exception as exc:  # noqa: BLE001 - onnxruntime's own exception types: the session failed
        return Failure("rejected", (), _line(exc))
    dtypes = output_dtypes(model)
    bad = {}
    for name, want in expected.items():
        c = compare(got.get(name), want, dtype=dtypes.get(name))
        if not c.ok:
            bad[name] = c.message
    if not bad:
        return None
    return Failure("wrong-result", tuple(sorted(bad)), "; ".join(f"output {n!r}: {m}" for n, m in sorted(bad.items())))


def peel(
    model,
    level: str,
    runner: Callable[..., Any],
    feeds: Mapping[str, Any] | None = None,
    *,
    held: Sequence[str] = (),
    max_layers: int = MAX_LAYERS,
    max_sessions: int = 80,
) -> Peeled:
    """The faults of onnxruntime's ``level`` on ``model``, each with the transformers behind it, the later ones found
    with the earlier ones' transformers held disabled.

    Args:
        model: a ModelProto the unoptimized session runs.
        level: ``basic``, ``extended`` or ``all``.
        runner: ``runner(fn, model, *args)``, e.g. :meth:`IsolatedExecutor.call`.
        feeds: input name → value; default: synthesized from the input annotations
            (:func:`passcheck.runtime.feeds.synthesize`, seed 0, unknown dims 2).
        held: transformers already named (an earlier attribution's): kept disabled throughout, so the first layer
            is what they hid.

    Returns:
        :class:`Peeled`; no layer when the form does not fail at ``level`` here or the unoptimized session cannot
        run it (``note`` says which). It stops at a layer no known transformer removes, at ``max_layers``, when the
        session is right with the held transformers off, or at ``max_sessions``.

    ``feeds`` not given and an input that cannot be synthesized: no layer, the note says why.
    """
    from passcheck.attribution.ort import _minimize, candidates

    if feeds is None:
        from passcheck.errors import FeedError
        from passcheck.runtime.feeds import synthesize

        try:
            feeds = synthesize(model, {}, 0)
        except FeedError as exc:
            return Peeled([], 0, f"no feeds to compare on: {exc}")
    sessions = 0
    seen: dict[frozenset[str], Failure | None] = {}

    class Budget(Exception):
        pass

    def failure(disabled: Sequence[str]) -> Failure | None:
        nonlocal sessions
        k = frozenset(disabled)
        if k not in seen:
            if sessions >= max_sessions:
                raise Budget
            sessions += 1
            seen[k] = judge(model, level, disabled, feeds, expected, runner)
        return seen[k]

    try:
        sessions += 1
        expected = runner(run_optimized, model, "disabled", [], dict(feeds))
    except Exception as exc:  # noqa: BLE001 - the worker's death too: nothing to compare against
        return Peeled([], sessions, f"the unoptimized session does not run the form here: {_line(exc)}")
    layers: list[Layer] = []
    held = tuple(held)
    try:
        current = failure(held)
        if current is None:
            with_held = f" with {', '.join(held)} disabled" if held else ""
            return Peeled([], sessions, f"not reproduced: at ort:{level}{with_held} the form runs right here")
        while current is not None and len(layers) < max_layers:
            pool = [n for n in candidates(level) if n not in held]
            shown = current.key

            def gone(disabled, held=held, shown=shown) -> bool:
                f = failure([*held, *disabled])
                return f is None or f.key != shown

            if not gone(pool):
                layers.append(Layer(current, held, ()))
                return Peeled(layers, sessions, "the last fault stays with every transformer passcheck knows disabled")
            names = tuple(_minimize(pool, gone))
            layers.append(Layer(current, held, names))
            held = (*held, *names)
            current = failure(held)
    except Budget:
        return Peeled(layers, sessions, f"gave up after {max_sessions} sessions")
    if current is None:
        return Peeled(layers, sessions, "checked: with every named transformer disabled the form runs right")
    return Peeled(layers, sessions, f"stopped after {max_layers} layers")


def said(p: Peeled) -> str:
    """One line for a report: each layer's fault and transformers (a layer found with transformers held disabled
    is said to be hidden under them), then why it stopped."""
    parts = []
    for layer in p.layers:
        who = ", ".join(layer.names) or "no known transformer"
        under = f"hidden under {', '.join(layer.held)}: " if layer.held else ""
        parts.append(f"{under}{who}: {layer.failure.kind}: {layer.failure.text}")
    return "; ".join([*parts, p.note])


def _line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return (text[0] if text else type(exc).__name__)[:300]
