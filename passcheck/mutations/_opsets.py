"""Which operator schemas a model's default-domain opset stamp selects, and whether moving the
stamp changes any of them (onnx.defs: a node of op O under opset v follows the schema with the
highest ``since_version`` <= v)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from passcheck.mutations._base import is_default_domain, subgraphs

if TYPE_CHECKING:
    import onnx


def default_ops(model: "onnx.ModelProto") -> set[str] | None:
    """Default-domain op types in the model, subgraphs included; None when the model has
    model-local functions (their own opset imports are not moved here)."""
    if len(model.functions):
        return None
    ops: set[str] = set()

    def walk(g: "onnx.GraphProto") -> None:
        for n in g.node:
            if is_default_domain(n):
                ops.add(n.op_type)
            for sg in subgraphs(n):
                walk(sg)

    walk(model.graph)
    return ops


def schema(op: str, version: int):
    """The schema opset ``version`` selects for ``op``, or None when ``op`` does not exist there."""
    import onnx

    try:
        s = onnx.defs.get_schema(op, version, "")
    except onnx.defs.SchemaError:
        return None
    return None if s.deprecated else s


def same_schema(op: str, a: int, b: int) -> bool:
    """``op`` follows one schema at every opset from ``a`` to ``b`` (no version of it in between)."""
    sa, sb = schema(op, a), schema(op, b)
    return sa is not None and sb is not None and sa.since_version == sb.since_version


def _signature(s) -> tuple:
    params = tuple((p.name, p.option, p.type_str) for p in list(s.inputs) + [None] + list(s.outputs) if p is not None)
    attrs = tuple(sorted((a.name, a.type, a.required, a.default_value.SerializeToString(deterministic=True)) for a in s.attributes.values()))
    return len(s.inputs), params, attrs


def widened_only(op: str, a: int, b: int) -> bool:
    """Every schema of ``op`` between opsets ``a`` and ``b`` has the same inputs, outputs and
    attributes (names, options, defaults) and the later ones allow a superset of element types:
    the versions in between only added types (e.g. bfloat16 at opset 13)."""
    lo, hi = sorted((a, b))
    first = schema(op, lo)
    if first is None:
        return False
    for v in range(lo + 1, hi + 1):
        s = schema(op, v)
        if s is None or _signature(s) != _signature(first):
            return False
        before = {t.type_param_str: set(t.allowed_type_strs) for t in first.type_constraints}
        after = {t.type_param_str: set(t.allowed_type_strs) for t in s.type_constraints}
        if before.keys() != after.keys() or any(not before[k] <= after[k] for k in before):
            return False
    return True


def stamp_can_move(ops: Iterable[str], a: int, b: int, *, widening: bool = False) -> bool:
    """Every op keeps its schema between opsets ``a`` and ``b`` (or, with ``widening``, only gains types)."""
    return all(same_schema(op, a, b) or (widening and widened_only(op, a, b)) for op in ops)


def highest_opset(ir_version: int) -> int:
    """The highest default-domain opset an IR version goes with (onnx.helper.VERSION_TABLE), capped
    at the installed onnx's newest opset."""
    import onnx

    rows = [row[2] for row in onnx.helper.VERSION_TABLE if row[1] <= ir_version]
    return min(max(rows, default=1), onnx.defs.onnx_opset_version())


def set_default_opset(model: "onnx.ModelProto", version: int) -> None:
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx"):
            o.version = version
