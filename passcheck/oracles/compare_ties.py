"""A comparison the unoptimized run decided between operands its own rounding made (near-)equal (M279).

Operators.md Greater, Less, GreaterOrEqual, LessOrEqual, Equal: an elementwise bool of two (broadcast) operands,
decided by their exact values. Where two computed float operands lie within the rounding a pass may add to each
(:func:`passcheck.oracles.index_ties.near`), a pass that re-rounds them (reorders a sum, folds, computes in float16)
may flip the bool there: no evidence either way. The same holds one step on, for ``Where(c, X, Y)`` whose condition
is such a comparison: the output takes the other branch's element (Operators.md Where: ``X`` where ``c``, else ``Y``)
at a position where ``c``'s operands are near. Such positions are ``unchecked`` with the reason, never ``ok``; a
flip where the operands are clearly apart, or a Where output that matches neither branch, stays a difference."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from passcheck.oracles.index_ties import Band, computed, exact, near, producer

#: The elementwise comparisons (default domain) whose bool output rounding of float operands can flip.
COMPARISONS = frozenset({"Greater", "Less", "GreaterOrEqual", "LessOrEqual", "Equal"})


def flipped_positions(
    model: Any, feeds: Mapping[str, Any], name: str, got: Any, expected: Any, band: Band = exact
) -> str | None:
    """Why every position where ``got`` (the pass output's) and ``expected`` (the input's run) of graph output
    ``name`` differ is a comparison the input's own rounding decided, or None.

    ``name`` must be written by a main-graph comparison (bool output, same shape both sides) or by a ``Where``
    whose condition one writes; the comparison's operands are float, at least one computed by a node. onnx's
    reference evaluator runs ``model`` on ``feeds`` (its output must equal ``expected`` or ``got`` at each position
    for a comparison). At each differing position the operands must be :func:`~passcheck.oracles.index_ties.near`
    within ``band``; for a Where, ``got`` must there be near the branch the condition did not pick. Never raises."""
    node = producer(model, name)
    if node is None or node.op_type not in COMPARISONS | {"Where"}:
        return None
    test = node if node.op_type != "Where" else producer(model, node.input[0])
    if test is None or test.op_type not in COMPARISONS or not any(computed(model, x) for x in test.input[:2]):
        return None
    g, e = np.asarray(got), np.asarray(expected)
    if g.shape != e.shape or g.dtype != e.dtype:
        return None
    from passcheck.runtime.isolated_tools import run_reference  # in the front door's worker (M409)

    run = run_reference(model, feeds)
    ops = [run.observed.get(x) for x in test.input[:2]]
    if run.error or not all(isinstance(x, np.ndarray) and x.dtype.kind == "f" for x in ops):
        return None
    try:
        a, b = (np.broadcast_to(x, e.shape) for x in ops)
    except ValueError:
        return None
    close = near(a, b, band)
    if node is test:
        ref = run.observed.get(name)
        if not isinstance(ref, np.ndarray) or ref.shape != e.shape or not np.all((ref == e) | (ref == g)):
            return None
        differ = g != e
        if not differ.any() or not close[differ].all():
            return None
        return (
            f"{int(differ.sum())} of {e.size} positions where {node.op_type}'s operands {test.input[0]!r}, "
            f"{test.input[1]!r} are equal within rounding in the unoptimized run: its own rounding decided them (M279)"
        )
    if e.dtype.kind != "f":
        return None
    cond, x, y = (run.observed.get(v) for v in node.input)
    if not all(isinstance(v, np.ndarray) for v in (cond, x, y)):
        return None
    try:
        cond, x, y = (np.broadcast_to(v, e.shape) for v in (cond, x, y))
    except ValueError:
        return None
    differ = ~near(g, e, band)
    other = np.where(cond, y, x)  # the branch the condition did not pick
    if not differ.any() or not (close[differ].all() and near(g[differ], other[differ], band).all()):
        return None
    return (
        f"{int(differ.sum())} of {e.size} positions where Where's condition {node.input[0]!r} compares operands equal "
        "within rounding in the unoptimized run: the other branch's value is its own rounding's choice (M279)"
    )
