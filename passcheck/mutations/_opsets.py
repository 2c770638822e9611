"""Whether moving a model's default-domain opset stamp changes what any of its ops means, for the
rewrites that move the stamp (schema equality itself: :mod:`passcheck.cases.opsets`; a node of op
O under opset v follows the schema with the highest ``since_version`` <= v)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from passcheck.cases.opsets import NEWEST_PORTABLE, ai_onnx_ops, schema_changes
from passcheck.runtime import isolated_tools

if TYPE_CHECKING:
    import onnx


def default_ops(model: onnx.ModelProto) -> set[str] | None:
    """ai.onnx op types of the model, subgraphs included; None when the model has model-local
    functions (their own opset imports are not moved here)."""
    return None if len(model.functions) else ai_onnx_ops(model.graph)


def schema(op: str, version: int):
    """The schema opset ``version`` selects for ``op``, or None when ``op`` does not exist there (or is deprecated)."""
    import onnx

    try:
        s = onnx.defs.get_schema(op, version, "")
    except onnx.defs.SchemaError:
        return None
    return None if s.deprecated else s


def _signature(s) -> tuple:
    params = tuple((p.name, p.option, p.type_str) for p in list(s.inputs) + [None] + list(s.outputs) if p is not None)
    attrs = tuple(
        sorted(
            (a.name, a.type, a.required, a.default_value.SerializeToString(deterministic=True))
            for a in s.attributes.values()
        )
    )
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


def data_types_allowed(model: onnx.ModelProto, nodes, version: int) -> bool:
    """Whether the schema opset ``version`` selects for each of ``nodes`` (main graph or subgraph
    nodes of ``model``) accepts the element type of the node's first input, as onnx shape
    inference types it (an op version may take fewer types: ReduceMin-13 has no bool, -20 has).
    False when a type is unknown."""
    import onnx

    try:
        inferred = isolated_tools.infer_shapes(model)
    except Exception:  # noqa: BLE001 - the types cannot be told: do not assume
        return False
    types: dict[str, str] = {}

    def walk(g: onnx.GraphProto) -> None:
        for v in [*g.input, *g.value_info, *g.output]:
            if v.type.HasField("tensor_type") and v.type.tensor_type.elem_type:
                types[v.name] = onnx.helper.tensor_dtype_to_string(v.type.tensor_type.elem_type)
        for t in g.initializer:
            types[t.name] = onnx.helper.tensor_dtype_to_string(t.data_type)
        for n in g.node:
            for a in n.attribute:
                for sg in [a.g, *a.graphs] if a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS) else []:
                    walk(sg)

    walk(inferred.graph)
    for n in nodes:
        sch = schema(n.op_type, version)
        if sch is None or not n.input or n.input[0] not in types:
            return False
        allowed = {t.type_param_str: set(t.allowed_type_strs) for t in sch.type_constraints}.get(sch.inputs[0].type_str)
        got = "tensor(" + types[n.input[0]].removeprefix("TensorProto.").lower() + ")"
        if allowed is not None and got not in allowed:
            return False
    return True


def changed_ops(model: onnx.ModelProto, a: int, b: int) -> set[str]:
    """ai.onnx ops of ``model`` whose schema differs between opsets ``a`` and ``b`` (or missing at either)."""
    return {change.split(":", 1)[0] for change in schema_changes(model, a, b)}


def highest_opset(ir_version: int) -> int:
    """The highest default-domain opset a stamp may move up to: what the IR version goes with
    (onnx.helper.VERSION_TABLE), the installed onnx's newest, and
    :data:`~passcheck.cases.opsets.NEWEST_PORTABLE` (what every supported environment knows)."""
    import onnx

    rows = [row[2] for row in onnx.helper.VERSION_TABLE if row[1] <= ir_version]
    return min(max(rows, default=1), onnx.defs.onnx_opset_version(), NEWEST_PORTABLE)


def set_default_opset(model: onnx.ModelProto, version: int) -> None:
    for o in model.opset_import:
        if o.domain in ("", "ai.onnx"):
            o.version = version
