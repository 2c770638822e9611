"""An index the unoptimized run chose among values its own rounding made (near-)equal (M258, M278).

Operators.md defines these index outputs by the order of float values alone, with a tie rule:

- ArgMax / ArgMin: the index of the greatest (least) element along ``axis``; among equal extremes the first
  (``select_last_index=1``: the last).
- TopK ``Indices`` (output 1): the ``k`` largest (``largest=0``: smallest) along ``axis``; "the element with the lower
  index will appear first" among equal values. With ``sorted=0`` the order of the ``k`` (``Values`` and ``Indices``)
  is left open.

A pass that rewrites the computation before the index (drops a monotone Softmax, reorders a sum, computes in float16)
moves each computed value within its rounding (IEEE 754 §4.3), so two values the input's run found equal, or within
that rounding of each other, may come out in the other order: the index then falls to the tie rule on one side and
not on the other. Where, at every position where the pass output's index differs from the unoptimized run's, the two
indices point (in the unoptimized run, onnx's reference evaluator) at values of a computed tensor (not a graph input,
initializer or Constant, whose ties are exact) within the rounding both sides may add (:func:`near`), the difference
is no evidence either way: ``unchecked`` there, never ``ok``. Values clearly apart stay a difference to report."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

#: The index ops whose ties this module reads (default domain), by the output index that holds the index.
INDEX_OPS = {"ArgMax": 0, "ArgMin": 0, "TopK": 1}
#: A tensor's rounding band, ``values -> (rtol, atol)``: how far a pass may move each value of ``values``
#: (the numeric oracle's tolerance for its dtype and the pass's declared precision).
Band = Callable[[np.ndarray], tuple[float, float]]


def exact(values: np.ndarray) -> tuple[float, float]:
    """The band of a value no rounding moves: ``(0.0, 0.0)``."""
    return 0.0, 0.0


def near(a: np.ndarray, b: np.ndarray, band: Band) -> np.ndarray:
    """Where two float arrays of one shape lie within the rounding of each other: ``|a - b| <= 2 (atol + rtol
    max(|a|, |b|))`` with ``band(a)``'s ``(rtol, atol)`` (each side may move by one band: they may swap). Bool array
    of their shape; NaN is near nothing."""
    rtol, atol = band(a)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        return np.abs(a64 - b64) <= 2 * (atol + rtol * np.maximum(np.abs(a64), np.abs(b64)))


def producer(model: Any, name: str) -> Any:
    """The main-graph default-domain node writing ``name``, or None."""
    return next((n for n in model.graph.node if name in n.output and n.domain in ("", "ai.onnx")), None)


def computed(model: Any, name: str) -> bool:
    """Whether a main-graph node other than Constant writes ``name`` (a graph input, initializer or Constant holds
    exact values: no pass re-rounds them)."""
    return any(name in n.output and n.op_type != "Constant" for n in model.graph.node)


def tied_positions(
    model: Any, feeds: Mapping[str, Any], name: str, got: Any, expected: Any, band: Band = exact
) -> str | None:
    """Why every position where ``got`` (the pass output's) and ``expected`` (the input's run) of graph output
    ``name`` differ is the input's own rounding's choice, or None.

    ``name`` must be the int64 index output of a main-graph ArgMax / ArgMin / TopK (or TopK's ``Values`` with
    ``sorted=0``) whose data input a node computes. onnx's reference evaluator runs ``model`` on ``feeds``; its index
    must equal ``expected`` or ``got`` at every position. At each differing position the data values the two
    indices point at must be :func:`near` within ``band`` (default :func:`exact`: equal only); for ``sorted=0`` the
    sorted values of each slice must be. Never raises: a model the evaluator cannot run, an index out of range or a
    shape mismatch yields None."""
    node = producer(model, name)
    if node is None or node.op_type not in INDEX_OPS or not computed(model, node.input[0]):
        return None
    from onnx import helper  # the matrix parent runs without onnx: imported on use

    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    unsorted = node.op_type == "TopK" and not int(attrs.get("sorted", 1))
    slot = list(node.output).index(name)
    if slot != INDEX_OPS[node.op_type] and not (unsorted and slot == 0):
        return None
    g, e = np.asarray(got), np.asarray(expected)
    if g.shape != e.shape or g.dtype != e.dtype:
        return None
    from passcheck.runtime.isolated_tools import run_reference  # in the front door's worker (M409)

    data = node.input[0]
    run = run_reference(model, feeds)
    d, ref = run.observed.get(data), run.observed.get(name)
    if run.error or not isinstance(d, np.ndarray) or d.dtype.kind != "f" or not isinstance(ref, np.ndarray):
        return None
    if ref.shape != e.shape or not np.all((ref == e) | (ref == g)):
        return None  # the evaluator does not read the input's run: no claim about its values
    axis = int(attrs.get("axis", 0 if node.op_type != "TopK" else -1)) % d.ndim
    if node.op_type == "TopK" and slot == 0:  # Values, sorted=0: each slice's values in any order
        if not np.all(near(np.sort(g, axis), np.sort(e, axis), band)):
            return None
        differ = g != e
        return f"{int(differ.sum())} of {e.size} positions of TopK's values with sorted=0: their order is left open"
    if g.dtype.kind not in "iu":
        return None
    keep = node.op_type == "TopK" or int(attrs.get("keepdims", 1))
    gi, ei = (g, e) if keep else (np.expand_dims(g, axis), np.expand_dims(e, axis))
    try:
        at_got = np.take_along_axis(d, gi.astype(np.int64), axis)
        at_expected = np.take_along_axis(d, ei.astype(np.int64), axis)
    except (IndexError, ValueError):
        return None  # an index out of range is no tie
    differ = gi != ei
    if unsorted:
        together = near(np.sort(at_got, axis), np.sort(at_expected, axis), band)
    else:
        together = near(at_got, at_expected, band)
    if not differ.any() or not np.all(together[differ] if not unsorted else together):
        return None
    if unsorted:
        return f"{int(differ.sum())} of {e.size} positions of TopK's indices with sorted=0: their order is left open"
    exactly = np.array_equal(at_got[differ], at_expected[differ])
    return (
        f"{int(differ.sum())} of {e.size} positions where {node.op_type}'s input {data!r} "
        f"{'ties' if exactly else 'is equal within rounding'} in the unoptimized run: "
        "its own rounding chose the index (M258, M278)"
    )
