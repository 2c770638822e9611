"""Which non-finite values of an unoptimized run come from floating-point overflow (M168).

IEEE 754 §7.4: an operation overflows when its exact result exceeds the format's largest finite number; the
result is then ±inf. An input model that overflows on its feeds has no exact value at those positions: a pass
that reassociates or fuses (a Conv's weights scaled by a BatchNormalization, Operators.md BatchNormalization)
may stay finite where the input's run went to ±inf, or the other way, and neither side is wrong in the reals.

:func:`overflowed_outputs` finds, in the input model's run on one feed, each main-graph node whose inputs are all
finite and whose floating-point output is not (an *origin*), and recomputes that node alone with its float inputs
widened to float64 (onnx's reference evaluator). Where the wide result is finite at every non-finite position, the
origin overflowed (the narrow format's range, not the op's definition: ``1/0`` and ``Log(0)`` stay ±inf in
float64, IEEE 754 §7.3 division by zero, and are no overflow). A graph output is excused when every origin it
depends on overflowed; one fed by any other origin (or by a non-finite feed or initializer) is not."""

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
    from passcheck.runtime.reference import run_reference

    run = run_reference(model, feeds)
    if run.error:
        return {}
    values: dict[str, Any] = {i.name: _array(i) for i in model.graph.initializer}
    values.update(feeds)
    values.update({k: v for k, v in run.observed.items() if "::" not in k})
    causes: dict[str, set[str]] = {k: {OTHER} for k, v in values.items() if k in feeds or k in _inits(model)}
    causes = {k: c for k, c in causes.items() if nonfinite(values[k])}
    for node in model.graph.node:  # topological order (IR.md §Graphs)
        ins = {n for n in node.input if n}
        came = set().union(*(causes[n] for n in ins if n in causes))
        bad = [o for o in node.output if o and nonfinite(values.get(o))]
        if not bad:
            continue
        if not came:
            came = {_origin(node, {n: values.get(n) for n in ins}, {o: values[o] for o in bad}, model)}
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


def _origin(node: Any, inputs: dict[str, Any], outputs: dict[str, np.ndarray], model: Any) -> str:
    """An overflow's description when ``node`` recomputed in float64 is finite at every non-finite position of
    each of ``outputs``; else :data:`OTHER`."""
    if any(v is None for v in inputs.values()) or any(a.g.node or a.graphs for a in node.attribute):
        return OTHER
    wide = {
        k: v.astype(np.float64) if isinstance(v, np.ndarray) and v.dtype.kind == "f" else v for k, v in inputs.items()
    }
    try:
        from onnx.reference import ReferenceEvaluator

        opsets = {o.domain: o.version for o in model.opset_import}
        with np.errstate(all="ignore"):
            got = ReferenceEvaluator(node, opsets=opsets).run(None, wide)
    except Exception:  # noqa: BLE001 - a node the evaluator cannot run alone (or in float64): cause unknown
        return OTHER
    said = []
    for (name, narrow), w in zip(outputs.items(), (dict(zip(node.output, got))[o] for o in outputs), strict=True):
        w = np.asarray(w)
        if w.shape != narrow.shape or w.dtype.kind != "f":
            return OTHER
        where = ~np.isfinite(narrow)
        if not np.isfinite(w[where]).all():
            return OTHER
        said.append(f"{int(where.sum())} of {narrow.size} values of {name!r}")
    label = f"{node.op_type} {node.name!r}" if node.name else node.op_type
    return (
        f"{label} overflows {narrow.dtype} on finite inputs ({', '.join(said)} are finite in float64; IEEE 754 "
        "§7.4: the exact result exceeds the format's range)"
    )
