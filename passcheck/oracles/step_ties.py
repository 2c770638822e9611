"""Values a step function decided at a computed input within rounding of its step, and what follows (M306, M307).

Operators.md defines some outputs as discontinuous functions of float inputs: a change of an input within the
rounding a pass may add (:func:`passcheck.oracles.index_ties.near`) can move them by a whole step. From the schemas:

- Sign (step at 0), Floor / Ceil (at integers), Round (at half-integers), Cast from float to an integer type
  (truncation: at integers) or to bool (at 0), Mod of floats (``fmod=1``: where ``A / B`` is an integer);
- Greater, Less, GreaterOrEqual, LessOrEqual, Equal (where the two operands are equal);
- ArgMax / ArgMin, Hardmax (where two values of a slice share its extreme), TopK's ``Indices`` (where two values of
  a slice are equal: the whole slice), NonZero (any value at 0) and Unique (any two values equal): their output's
  shape itself may change, so the whole output.

**M306**: such an output is *flippable* at a position whose input, in the unoptimized run (onnx's reference
evaluator), is a computed tensor's (not a graph input, initializer or Constant: those hold exact values) and lies
within twice the band of the step. **M307**: a value computed from a flippable one is flippable too: per element
through the elementwise ops (the output has its inputs' multidirectional broadcast shape and each element reads
only its own: Not / And / Or / Xor of a flipped comparison, a Where whose condition flipped, arithmetic), through
the run's indices for Gather / GatherElements (an element reads its index and the data element it picks), the whole
tensor through every other op (a ReduceMax of a masked value, a MatMul, a ScatterElements).

A pass output that differs from the unoptimized run only at flippable positions is no evidence: ``unchecked`` there
with the reason (:func:`stepped_positions`), never ``ok``; a difference at one other position is reported as before.
An output that is itself an ArgMax / ArgMin / TopK index, a comparison or a Where on one is left to the stricter tests
of :mod:`passcheck.oracles.index_ties` and :mod:`passcheck.oracles.compare_ties` for its own step (M258, M278, M279);
what it carries from a step upstream is read here.
Main graph only: a step inside an If / Loop / Scan body or a function is not read (such a difference stays
reported)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from passcheck.oracles.index_ties import INDEX_OPS, Band, exact, near, producer

#: Ops whose output element reads only the same element of each (multidirectionally broadcast) input (Operators.md).
ELEMENTWISE = frozenset(
    "Abs Acos Acosh Add And Asin Asinh Atan Atanh BitwiseAnd BitwiseNot BitwiseOr BitwiseXor Cast CastLike Ceil Celu "
    "Clip Cos Cosh Div Elu Equal Erf Exp Floor Gelu Greater GreaterOrEqual HardSigmoid HardSwish Identity IsInf IsNaN "
    "LeakyRelu Less LessOrEqual Log Max Mean Min Mish Mod Mul Neg Not Or PRelu Pow Reciprocal Relu Round Selu Sigmoid "
    "Sign Sin Sinh Softplus Softsign Sqrt Sub Sum Tan Tanh ThresholdedRelu Where Xor".split()
)
#: Ops whose float output holds integers exactly: a Cast of it to an integer type is no step.
INTEGRAL = frozenset({"Floor", "Ceil", "Round", "Sign", "Hardmax"})
COMPARISONS = frozenset({"Greater", "Less", "GreaterOrEqual", "LessOrEqual", "Equal"})


def _float(v: Any) -> bool:
    return isinstance(v, np.ndarray) and v.dtype.kind == "f"


def _at(x: np.ndarray, step: np.ndarray, band: Band) -> np.ndarray:
    """Where ``x`` lies within twice ``band(x)`` of ``step`` (same shape)."""
    return near(x, step.astype(x.dtype) if step.dtype != x.dtype else step, band)


def _slices(x: np.ndarray, axis: int, band: Band) -> tuple[np.ndarray, np.ndarray]:
    """(near-maximum, near-minimum) masks of ``x``'s slices along ``axis``: True at the values within twice the band
    of their slice's extreme where two or more are, per element of ``x``."""
    out = []
    for ext in (np.max, np.min):
        close = near(x, np.broadcast_to(ext(x, axis=axis, keepdims=True), x.shape), band)
        out.append(close & (close.sum(axis=axis, keepdims=True) > 1))
    return out[0], out[1]


def _any_close(x: np.ndarray, axis: int, band: Band) -> np.ndarray:
    """Per slice along ``axis`` (kept as size 1): whether two of its values are within twice the band."""
    s = np.sort(x, axis=axis)
    a, b = np.take(s, range(s.shape[axis] - 1), axis), np.take(s, range(1, s.shape[axis]), axis)
    return near(a, b, band).any(axis=axis, keepdims=True)


def source(
    node: Any, made: Mapping[str, str], values: Mapping[str, Any], band: Band, opset: int
) -> dict[str, np.ndarray]:
    """M306: output name -> bool mask (the output's shape) of the positions of ``node`` a within-rounding change of
    its computed float inputs can flip, from the unoptimized run's ``values``; ``made``: tensor name -> the op type
    of the main-graph node other than Constant that computes it (a graph input, initializer or Constant holds exact
    values). Empty where the node is no step, its inputs are not computed floats, or the values do not fit the
    schema (never raises on them)."""
    from onnx import helper

    op, ins = node.op_type, [values.get(x) for x in node.input]
    outs = [values.get(x) for x in node.output]
    if node.domain not in ("", "ai.onnx") or not ins or not _float(ins[0]) or not isinstance(outs[0], np.ndarray):
        return {}
    live = [x in made for x in node.input]
    attrs = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    x, shape = ins[0], outs[0].shape
    try:
        if op in COMPARISONS and len(ins) == 2 and _float(ins[1]) and any(live[:2]):
            a, b = np.broadcast_arrays(x, ins[1])
            return {node.output[0]: near(a, b, band)}
        if not live[0]:
            return {}
        if op == "Sign" or (op == "Cast" and outs[0].dtype == np.bool_):
            return {node.output[0]: _at(x, np.zeros_like(x), band)}
        to_int = op == "Cast" and outs[0].dtype.kind in "iu" and made[node.input[0]] not in INTEGRAL
        if op in ("Floor", "Ceil") or to_int:
            return {node.output[0]: _at(x, np.round(x), band)}
        if op == "Round":
            return {node.output[0]: _at(x, np.floor(x) + 0.5, band)}
        if op == "Mod" and int(attrs.get("fmod", 0)) and len(ins) == 2 and _float(ins[1]):
            with np.errstate(divide="ignore", invalid="ignore"):
                q = np.asarray(x / ins[1])
            return {node.output[0]: np.broadcast_to(_at(q, np.round(q), band), shape)}
        if op in ("ArgMax", "ArgMin"):
            axis = int(attrs.get("axis", 0)) % x.ndim
            hi, lo = _slices(x, axis, band)
            tied = (hi if op == "ArgMax" else lo).any(axis=axis, keepdims=bool(int(attrs.get("keepdims", 1))))
            return {node.output[0]: np.broadcast_to(tied, shape)}
        if op == "Hardmax":
            axis = int(attrs.get("axis", -1 if opset >= 13 else 1)) % x.ndim
            flat = x if opset >= 13 else x.reshape(int(np.prod(x.shape[:axis])), -1)
            hi = _slices(flat, axis if opset >= 13 else 1, band)[0]
            return {node.output[0]: hi.reshape(shape)}
        if op == "TopK" and len(node.output) > 1 and isinstance(outs[1], np.ndarray):
            axis = int(attrs.get("axis", -1)) % x.ndim
            return {node.output[1]: np.broadcast_to(_any_close(x, axis, band), outs[1].shape)}
        if op == "NonZero" and _at(x, np.zeros_like(x), band).any():
            return {node.output[0]: np.ones(shape, bool)}
        if op == "Unique" and x.size > 1 and _any_close(x.reshape(-1), 0, band).any():
            return {o: np.ones(v.shape, bool) for o, v in zip(node.output, outs) if o and isinstance(v, np.ndarray)}
    except (ValueError, IndexError, TypeError):
        return {}
    return {}


def _carried(node: Any, masks: Mapping[str, np.ndarray], values: Mapping[str, Any], shape: tuple) -> np.ndarray:
    """M307: the positions of ``node``'s output (``shape``) that read a flippable position of an input: per element
    for :data:`ELEMENTWISE` ops, through the unoptimized run's indices for Gather / GatherElements (an output element
    reads its own index and the data element that index picks), the whole output otherwise."""
    ins = [masks.get(x) for x in node.input]
    try:
        if node.op_type in ELEMENTWISE:
            out = np.zeros(shape, bool)
            for m in ins:
                out = out | np.broadcast_to(m, shape) if m is not None else out
            return out
        if node.op_type in ("Gather", "GatherElements") and node.domain in ("", "ai.onnx"):
            from onnx import helper

            data, idx = values.get(node.input[0]), values.get(node.input[1])
            axis = next((int(helper.get_attribute_value(a)) for a in node.attribute if a.name == "axis"), 0)
            axis %= np.ndim(data)
            dm = ins[0] if ins[0] is not None else np.zeros(np.shape(data), bool)
            im = ins[1] if ins[1] is not None else np.zeros(np.shape(idx), bool)
            where = np.asarray(idx, np.int64)
            if node.op_type == "GatherElements":
                return np.take_along_axis(dm, where, axis) | im
            lead, tail = (1,) * axis, (1,) * (dm.ndim - axis - 1)
            return np.take(dm, where, axis) | np.broadcast_to(im.reshape(lead + im.shape + tail), shape)
    except (ValueError, IndexError, TypeError):
        pass
    return np.ones(shape, bool)  # not one to one: the whole output


def flippable(
    model: Any, values: Mapping[str, Any], band: Band = exact, quiet: frozenset[str] = frozenset()
) -> tuple[dict[str, np.ndarray], dict]:
    """M306 + M307 over ``model``'s main graph (nodes in their topological order): (tensor name -> bool mask of its
    flippable positions, tensor name -> the step nodes' outputs it follows from). Only tensors with a flippable
    position are listed; ``values`` is the unoptimized run's (name -> array); a step writing a name in ``quiet`` is
    not read as one (what it carries from upstream still is)."""
    opset = next((o.version for o in model.opset_import if o.domain in ("", "ai.onnx")), 0)
    made = {o: n.op_type for n in model.graph.node if n.op_type != "Constant" for o in n.output if o}
    masks: dict[str, np.ndarray] = {}
    origin: dict[str, set[str]] = {}
    for node in model.graph.node:
        outs = {o: values.get(o) for o in node.output if o}
        found = {o: m for o, m in source(node, made, values, band, opset).items() if m.any() and o not in quiet}
        up = [x for x in node.input if x in masks]
        for o, v in outs.items():
            if not isinstance(v, np.ndarray):
                continue
            m = found.get(o, np.zeros(v.shape, bool))
            if up:
                m = m | _carried(node, masks, values, v.shape)
            if m.any():
                masks[o] = m
                origin[o] = set().union(*(origin[x] for x in up)) | ({f"{node.op_type} {o!r}"} if o in found else set())
    return masks, origin


def _judged_elsewhere(model: Any, name: str) -> frozenset[str]:
    """The steps whose own flips M258 / M278 / M279 judge with a stricter test when ``name`` is theirs: an index
    output of ArgMax / ArgMin / TopK (its index must point at a near value), a comparison, and the comparison a
    Where's condition is (the Where must take the other branch)."""
    node = producer(model, name)
    if node is None:
        return frozenset()
    if node.op_type in INDEX_OPS or node.op_type in COMPARISONS:
        return frozenset(node.output)
    test = producer(model, node.input[0]) if node.op_type == "Where" else None
    return frozenset(test.output) if test is not None and test.op_type in COMPARISONS else frozenset()


def stepped_positions(
    model: Any, feeds: Mapping[str, Any], name: str, got: Any, expected: Any, band: Band = exact
) -> str | None:
    """Why every position where ``got`` (the pass output's) and ``expected`` (the input's run) of graph output
    ``name`` differ is flippable (:func:`flippable`; floats differ beyond ``band(expected)``'s tolerance, other
    dtypes when unequal; NaN equals NaN), or None. A differing shape counts only when the whole output is
    flippable (NonZero, Unique and what follows them). onnx's reference evaluator runs ``model`` on ``feeds``;
    never raises (a failed run, a non-array or a dtype mismatch yields None)."""
    g, e = np.asarray(got), np.asarray(expected)
    if g.dtype != e.dtype or g.dtype == object:
        return None
    from passcheck.runtime.isolated_tools import run_reference  # in the front door's worker (M409)

    run = run_reference(model, feeds)
    if run.error:
        return None
    masks, origin = flippable(model, run.observed, band, _judged_elsewhere(model, name))
    m = masks.get(name)
    if m is None:
        return None
    if g.shape != e.shape:
        if not m.all():
            return None
        differ_count, size = "all", e.size
    else:
        if m.shape != e.shape:
            return None
        if e.dtype.kind in "fc":
            rtol, atol = band(e)
            with np.errstate(invalid="ignore", over="ignore"):
                same = np.abs(g - e) <= atol + rtol * np.abs(e)
            differ = ~(same | (np.isnan(g) & np.isnan(e)) | (g == e))
        else:
            differ = g != e
        if not differ.any() or not m[differ].all():
            return None
        differ_count, size = int(differ.sum()), e.size
    steps = ", ".join(sorted(origin.get(name, ())))
    return (
        f"{differ_count} of {size} positions of {name!r} that follow from {steps}, a step the unoptimized run took "
        "at a computed value within rounding of it: its own rounding decided them (M306, M307)"
    )
