"""An ArgMax / ArgMin index the unoptimized run chose among tied values (M258).

Operators.md ArgMax / ArgMin: the output is the index of the greatest (least) element along ``axis``; among equal
extremes the first (``select_last_index=1``: the last) is taken. A pass that rewrites ``ArgMax(f(x))`` to
``ArgMax(x)`` for a strictly increasing ``f`` (onnxoptimizer's ``eliminate_nop_monotone_argmax`` on Softmax) is
exact in the reals, but the float32 run of ``f`` may round distinct values to one (a Softmax of values near 1e-38
is 1/n everywhere: IEEE 754 §4.3 rounding), and the input model's index then falls to the tie rule. Where the
index the pass's output gives holds, in the unoptimized run, the same value as the index that run chose, and that
value was computed (not a graph input or initializer, whose ties are exact), the difference is the input's own
rounding: those positions are not evidence either way (``unchecked``, never ``ok``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from onnx import helper

#: The index ops whose ties this module reads (default domain).
INDEX_OPS = frozenset({"ArgMax", "ArgMin"})


def tied_positions(model: Any, feeds: Mapping[str, Any], name: str, got: Any, expected: Any) -> str | None:
    """Why every position where the int64 index arrays ``got`` (the pass output's) and ``expected`` (the input's
    run) of graph output ``name`` differ is a tie of the input's run, or None.

    ``name`` must be produced by a main-graph ArgMax / ArgMin whose data input a node computes; onnx's reference
    evaluator runs ``model`` on ``feeds`` and must give ``expected`` for ``name``; at each differing position the
    data value at ``got``'s index equals the one at ``expected``'s (the extreme the input's run found). Never
    raises: a model the evaluator cannot run yields None."""
    from passcheck.runtime.reference import run_reference

    node = next((n for n in model.graph.node if name in n.output and n.domain in ("", "ai.onnx")), None)
    if node is None or node.op_type not in INDEX_OPS:
        return None
    data = node.input[0]
    if not any(data in n.output for n in model.graph.node):
        return None  # a fed or stored input: its ties are exact, the tie rule decides
    g, e = np.asarray(got), np.asarray(expected)
    if g.shape != e.shape or g.dtype.kind not in "iu" or e.dtype.kind not in "iu":
        return None
    run = run_reference(model, feeds)
    d, ref = run.observed.get(data), run.observed.get(name)
    if run.error or not isinstance(d, np.ndarray) or d.dtype.kind != "f" or not np.array_equal(ref, e):
        return None
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    axis = int(attrs.get("axis", 0)) % d.ndim
    keep = int(attrs.get("keepdims", 1))
    gi, ei = (g, e) if keep else (np.expand_dims(g, axis), np.expand_dims(e, axis))
    try:
        at_got = np.take_along_axis(d, gi.astype(np.int64), axis)
        at_expected = np.take_along_axis(d, ei.astype(np.int64), axis)
    except (IndexError, ValueError):
        return None  # an index out of range is no tie
    differ = gi != ei
    if not differ.any() or not np.array_equal(at_got[differ], at_expected[differ]):
        return None
    return (
        f"{int(differ.sum())} of {e.size} positions where {node.op_type}'s input {data!r} ties in the unoptimized "
        "run: its own rounding chose the index (M258)"
    )
