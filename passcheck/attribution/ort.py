"""Name the onnxruntime transformers behind an ``ort:*`` parity finding (:func:`attribute_parity`) or a
failure of the optimizer (:func:`attribute_failure`).

The finding says: at one optimization level, form A lost nodes of some op types (a fusion or a
fold applied) and form B did not. The responsible transformers are the smallest set whose
disabling (``InferenceSession(..., disabled_optimizers=[...])``) makes A keep them as B does.
Candidates come from ``ort_transformers.json`` (the names of each level's rewrite rules and
transformers, read from onnxruntime's sources); a name a build lacks is harmless, because every
answer is checked by its effect: the difference holds with nothing disabled and goes away with
the named set disabled. Every session runs in the isolated worker (``runner``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

#: Sessions one attribution may open (each optimizes one form once).
MAX_SESSIONS = 40


def candidates(level: str) -> tuple[str, ...]:
    """Names ``disabled_optimizers`` may hold for the pass ``ort:<level>`` (``basic`` …): the table's, then the
    graph transformers the installed build's verbose log names at ``level`` or below that the table lacks
    (:func:`passcheck.oracles.ort_levels.registered`: builds register some under their own names, such as
    ``LayerNormFusionL1``, which a table read from one version of the sources cannot hold).

    Raises:
        KeyError: an unknown level.
    """
    from passcheck.oracles.ort_levels import LEVELS, registered

    table = _table(level)
    logged = registered() or {}
    upto = LEVELS[: LEVELS.index(level) + 1]
    return table + tuple(sorted(n for n, lv in logged.items() if lv in upto and n not in table))


@cache
def _table(level: str) -> tuple[str, ...]:
    table = json.loads((Path(__file__).with_name("ort_transformers.json")).read_text(encoding="utf-8"))
    return tuple(n for lv in table["pass_levels"][level] for n in [*table["rules"].get(lv, ()), *table["levels"][lv]])


def optimized_ops(model, level: str, disabled: Sequence[str] = ()) -> dict[str, int]:
    """Op-type multiset (parity's count: Constant nodes left out) of ``model`` after onnxruntime
    optimizes it at ``level`` with ``disabled`` transformers off. Runs a session in this process:
    call it through :meth:`IsolatedExecutor.call`.

    Raises:
        RuntimeError (onnxruntime's exception types): the session cannot be created.
    """
    import tempfile

    import onnx
    import onnxruntime as ort

    from passcheck.oracles.parity import op_counts
    from passcheck.passes.ort_optimizer import LEVELS

    with tempfile.TemporaryDirectory(prefix="passcheck-attr-") as d:
        so = ort.SessionOptions()
        so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, LEVELS[level])
        so.optimized_model_filepath = str(Path(d) / "opt.onnx")
        so.log_severity_level = 4
        so.intra_op_num_threads = 1
        ort.InferenceSession(
            model.SerializeToString(),
            so,
            providers=["CPUExecutionProvider"],
            disabled_optimizers=list(disabled) or None,
        )
        return dict(op_counts(onnx.load(so.optimized_model_filepath, load_external_data=False)))


@dataclasses.dataclass
class Attribution:
    """Outcome of one attribution.

    Attributes:
        names: the transformers/rules whose disabling removes the difference (empty if unknown).
        sessions: onnxruntime sessions opened.
        note: why ``names`` is empty, or how the answer was checked.
    """

    names: list[str]
    sessions: int
    note: str


def attribute_parity(
    a, b, level: str, kept_ops: Sequence[str], runner: Callable[..., Any], max_sessions: int = MAX_SESSIONS
) -> Attribution:
    """The transformers that remove ``kept_ops`` from form ``a`` and not from form ``b``.

    Args:
        a: the form the pass optimized (the finding's ``other_form``), a ModelProto.
        b: the form that kept the ops (the finding's form).
        level: ``basic``, ``extended`` or ``all``.
        kept_ops: op types (parity's ``kept_op_types``); empty: the forms were rewritten into
            different new op types, and the signature is A's set of new op types.
        runner: ``runner(fn, model, *args)``, e.g. ``IsolatedExecutor.call``.

    Returns:
        An :class:`Attribution`; ``names`` empty with the reason in ``note`` when the difference
        does not reproduce, or disabling every candidate does not remove it, or the session cap
        is reached.
    """
    from passcheck.oracles.parity import op_counts

    sessions = 0

    def ops(model, disabled=()) -> dict[str, int]:
        nonlocal sessions
        if sessions >= max_sessions:
            raise _Budget
        sessions += 1
        return runner(optimized_ops, model, level, list(disabled))

    before_a, before_b = op_counts(a), op_counts(b)
    optimized_b: list[dict[str, int]] = []  # the form that kept the ops, optimized once (at the first question)

    def gone(disabled) -> bool:
        if not optimized_b:
            optimized_b.append(ops(b))
        after_a, after_b = ops(a, disabled), optimized_b[0]
        if kept_ops:  # the difference holds while some op type is kept by parity's rule (see kept_by_rule)
            return not any(kept_by_rule(op, before_a, after_a, before_b, after_b) for op in kept_ops)
        return sorted(set(after_a) - set(before_a)) == sorted(set(after_b) - set(before_b))  # same new op types

    return _search(
        level,
        gone,
        lambda: sessions,
        max_sessions,
        f"not reproduced: at ort:{level} the two forms are optimized alike here",
        "disabling every transformer passcheck knows for ort:{level} ({n}) does not remove the difference: "
        "the responsible one is not in its table",
        "checked: disabling {names} alone removes the difference",
    )


def attribute_failure(model, level: str, runner: Callable[..., Any], max_sessions: int = MAX_SESSIONS) -> Attribution:
    """The transformers whose disabling lets onnxruntime optimize ``model`` at ``level`` where, with every
    transformer on, creating the session fails (raises, or kills the worker: a ``crash`` finding of ``ort:<level>``).

    Args:
        model: the form the pass failed on (a ModelProto).
        level: ``basic``, ``extended`` or ``all``.
        runner: ``runner(fn, model, *args)``, e.g. ``IsolatedExecutor.call`` (a crash then costs a worker, not
            this process).

    Returns:
        An :class:`Attribution`; ``names`` empty, with why in ``note``, when the session does not fail here, still
        fails with every known transformer disabled (the failure is outside the optimizer), or the session cap is
        reached.
    """
    sessions = 0

    def gone(disabled) -> bool:
        nonlocal sessions
        if sessions >= max_sessions:
            raise _Budget
        sessions += 1
        try:
            runner(optimized_ops, model, level, list(disabled))
        except Exception:  # noqa: BLE001 - any failure (an error raised, the worker's death) is the finding here
            return False
        return True

    return _search(
        level,
        gone,
        lambda: sessions,
        max_sessions,
        f"not reproduced: onnxruntime optimizes the form at ort:{level} here",
        "it still fails with every transformer passcheck knows for ort:{level} ({n}) disabled: the failure is "
        "outside them (session set-up, a kernel, the saving of the model)",
        "checked: with {names} disabled the session is created",
    )


def _search(level, gone, count, max_sessions: int, absent: str, beyond: str, checked: str) -> Attribution:
    """The smallest set of ``level``'s transformers whose disabling makes ``gone(disabled)`` hold, checked by its
    effect (it does not hold with nothing disabled and holds with the set disabled); ``count()``: sessions opened.
    ``absent`` is said when it holds with nothing disabled, ``beyond`` (``{level}``, ``{n}``) when disabling all
    does not make it hold, ``checked`` (``{names}``) with the answer."""
    try:
        if gone(()):
            return Attribution([], count(), absent)
        names = list(candidates(level))
        if not gone(names):
            return Attribution([], count(), beyond.format(level=level, n=len(names)))
        found = _minimize(names, gone)
    except _Budget:
        return Attribution([], count(), f"gave up after {max_sessions} sessions")
    return Attribution(found, count(), checked.format(names=", ".join(found)))


def kept_by_rule(op: str, before_a, after_a, before_b, after_b) -> bool:
    """Parity's rule (:func:`passcheck.oracles.parity`'s ``_kept``, without its false-alarm filters): the pass
    got rid of ``op`` in form A and not in form B: A lost every node of the type while B kept some, or both had
    as many and B lost fewer. Arguments: op-type counts (mappings; a missing type is 0)."""
    ba, aa, bb, ab = (c.get(op, 0) for c in (before_a, after_a, before_b, after_b))
    if ba - aa <= 0 or not bb:
        return False
    return (aa == 0 and ab > 0) or (ba == bb and bb - ab < ba - aa)


class _Budget(Exception):
    pass


def _minimize(names: list[str], gone: Callable[[Sequence[str]], bool]) -> list[str]:
    """A minimal subset of ``names`` (for which ``gone`` holds) for which ``gone`` still holds:
    halve while one half suffices, then drop single names that are not needed."""
    while len(names) > 1:
        half = len(names) // 2
        if gone(names[:half]):
            names = names[:half]
        elif gone(names[half:]):
            names = names[half:]
        else:
            break
    for n in list(names):
        if len(names) > 1 and gone([m for m in names if m != n]):
            names = [m for m in names if m != n]
    return names
