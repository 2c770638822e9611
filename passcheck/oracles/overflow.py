"""Which non-finite values of an unoptimized run come from floating-point overflow (M168).

IEEE 754 §7.4: an operation overflows when its exact result exceeds the format's largest finite number; the
result is then ±inf. An input model that overflows on its feeds has no exact value at those positions: a pass
that reassociates or fuses (a Conv's weights scaled by a BatchNormalization, Operators.md BatchNormalization)
may stay finite where the input's run went to ±inf, or the other way, and neither side is wrong in the reals.

:func:`overflowed_outputs` finds, in the input model's run on one feed, each main-graph node whose inputs are all
finite and whose floating-point output is not (an *origin*), and recomputes that node alone with its float inputs
widened to float64 (onnx's reference evaluator). Where the wide result is finite at every non-finite position, the
origin overflowed (the narrow format's range, not the op's definition: ``1/0`` and ``Log(0)`` stay ±inf in
float64, IEEE 754 §7.3 division by zero, and are no overflow). When it is not, the origin is recomputed once more
from its float inputs' producers recomputed in float64 (M207): a ``Log(Softmax(x))`` whose Softmax underflows to 0
in float32 (IEEE 754 §7.5) but not in float64 is finite then, the narrow format's range one node up; an exact 0
(``Log(Sub(x, x))``) stays ±inf. A graph output is excused when every origin it depends on overflowed or
underflowed so; one fed by any other origin (or by a non-finite feed or initializer) is not."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

#: Outcomes of an origin besides an overflow's description.
OTHER = "other"


def overflowed_outputs(model: Any, feeds: Mapping[str, Any]) -> dict[str, str]:
    """Graph output name → why its non-finite values are the input's overflow, for each output of ``model`` whose
    non-finite values (in onnx's reference evaluator's run on ``feeds``) all descend from overflowing nodes
    (IEEE 754 §7.4). Outputs with no non-finite value, or with one from a non-finite feed or initializer, a
    division by zero or an unknown cause, are absent. Nodes inside If/Loop/Scan bodies and functions are judged by
    their main-graph node as a whole. Never raises: a model the evaluator cannot run yields ``{}``."""
    from passcheck.runtime.isolated_tools import run_reference  # in the front door's worker (M409)

    run = run_reference(model, feeds)
    if run.error:
        return {}
    values: dict[str, Any] = {i.name: _array(i) for i in model.graph.initializer}
    values.update(feeds)
    values.update({k: v for k, v in run.observed.items() if "::" not in k})
    causes: dict[str, set[str]] = {k: {OTHER} for k, v in values.items() if k in feeds or k in _inits(model)}
    causes = {k: c for k, c in causes.items() if nonfinite(values[k])}
    producer = {o: node for node in model.graph.node for o in node.output if o}

    def upstream(name: str) -> Any:
        """``name`` recomputed in float64 by its producer from that node's inputs widened (None: not possible)."""
        node = producer.get(name)
        if node is None or not isinstance(values.get(name), np.ndarray) or values[name].dtype.kind != "f":
            return None
        ins = {n: values.get(n) for n in node.input if n}
        if any(v is None or nonfinite(v) for v in ins.values()):
            return None
        got = _wide(node, ins, model)
        return None if got is None else got.get(name)

    for node in model.graph.node:  # topological order (IR.md §Graphs)
        ins = {n for n in node.input if n}
        came = set().union(*(causes[n] for n in ins if n in causes))
        bad = [o for o in node.output if o and nonfinite(values.get(o))]
        if not bad:
            continue
        if not came:
            came = {_origin(node, {n: values.get(n) for n in ins}, {o: values[o] for o in bad}, model, upstream)}
        for o in bad:
            causes[o] = came
    out = {}
    for o in model.graph.output:
        c = causes.get(o.name)
        if c and OTHER not in c:
            out[o.name] = "; ".join(sorted(c))
    return out


def _inits(model: Any) -> set[str]:
    return {i.name for i in model.graph.initializer}


def _array(tensor: Any) -> Any:
    from onnx import numpy_helper

    try:
        return numpy_helper.to_array(tensor)
    except Exception:  # noqa: BLE001 - an initializer numpy cannot hold (bfloat16, float8): not judged
        return None


def nonfinite(v: Any) -> bool:
    """Whether ``v`` is a floating-point array holding a NaN or ±inf."""
    return isinstance(v, np.ndarray) and v.dtype.kind == "f" and not np.isfinite(v).all()


def _wide(node: Any, inputs: dict[str, Any], model: Any) -> dict[str, np.ndarray] | None:
    """``node`` run alone by onnx's reference evaluator with its float inputs widened to float64: output name → value;
    None for a node with a body or one the evaluator cannot run alone (or in float64)."""
    if any(v is None for v in inputs.values()) or any(a.g.node or a.graphs for a in node.attribute):
        return None
    wide = {
        k: v.astype(np.float64) if isinstance(v, np.ndarray) and v.dtype.kind == "f" else v for k, v in inputs.items()
    }
    try:
        from onnx.reference import ReferenceEvaluator

        opsets = {o.domain: o.version for o in model.opset_import}
        with np.errstate(all="ignore"):
            got = ReferenceEvaluator(node, opsets=opsets).run(None, wide)
    except Exception:  # noqa: BLE001 - a node the evaluator cannot run alone (or in float64): cause unknown
        return None
    return {o: np.asarray(v) for o, v in zip(node.output, got, strict=False) if o}


def _finite_where(got: dict[str, np.ndarray] | None, outputs: dict[str, np.ndarray]) -> list[str] | None:
    """Per output, "N of M values of 'name'" when ``got`` is finite at each non-finite position of ``outputs``."""
    if got is None:
        return None
    said = []
    for name, narrow in outputs.items():
        w = got.get(name)
        if w is None or w.shape != narrow.shape or w.dtype.kind != "f":
            return None
        where = ~np.isfinite(narrow)
        if not np.isfinite(w[where]).all():
            return None
        said.append(f"{int(where.sum())} of {narrow.size} values of {name!r}")
    return said


def _origin(node: Any, inputs: dict[str, Any], outputs: dict[str, np.ndarray], model: Any, upstream: Any = None) -> str:
    """An overflow's description when ``node`` recomputed in float64 is finite at every non-finite position of
    each of ``outputs``, or an underflow's one node up when it is finite from its inputs' producers recomputed in
    float64 (``upstream``: input name → that value or None; M207); else :data:`OTHER`."""
    label = f"{node.op_type} {node.name!r}" if node.name else node.op_type
    dtype = next(iter(outputs.values())).dtype
    said = _finite_where(_wide(node, inputs, model), outputs)
    if said is not None:
        return (
            f"{label} overflows {dtype} on finite inputs ({', '.join(said)} are finite in float64; IEEE 754 "
            "§7.4: the exact result exceeds the format's range)"
        )
    if upstream is None:
        return OTHER
    redone = {k: upstream(k) for k in inputs}
    redone = {k: w for k, w in redone.items() if w is not None and w.shape == np.shape(inputs[k])}
    if not redone:
        return OTHER
    said = _finite_where(_wide(node, {**inputs, **redone}, model), outputs)
    if said is None:
        return OTHER
    return (
        f"{label} is not finite only from the float range of its inputs ({', '.join(sorted(redone))} recomputed "
        f"in float64 make {', '.join(said)} finite; IEEE 754 §7.4 / §7.5: an input's producer overflowed or "
        "underflowed)"
    )
