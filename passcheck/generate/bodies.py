"""Subgraph attributes for the control-flow ops' recipes (If, Loop, Scan; onnx Operators.md).

Each body is the smallest one its op's schema accepts that computes something from its inputs:

- If: ``then_branch`` and ``else_branch`` return different constants of the output type, so the
  result shows which branch ran (``cond`` is a one-element graph input).
- Loop: ``body(iteration_num, cond, v) → (cond, v + v)``, run ``M`` times (``M``, ``cond``
  constants from the domain table); the loop-carried value is a graph input.
- Scan: ``body(state, x) → (state + x, x)``, one state and one scan input, both ``[2, 3]``:
  from opset 9 the scan runs over axis 0 (elements ``[3]``); Scan-8 has a batch axis 0 and scans
  axis 1 (scalar elements). The state broadcasts with each element, so its shape stays ``[2, 3]``
  (``[3]`` per batch item for Scan-8).

Body values are typed by elem_type only (their shapes are left to inference), so a symbolic or
anonymous spelling of the graph inputs holds inside the body too. Every body value of the variadic ``V``
(Loop's carried value, Scan's state and scan input, If's outputs) is of the element type ``V`` is bound to
(Operators.md Loop / Scan: the body's inputs and outputs are the loop-carried / state / scan values), so an
element-type variant that rebinds ``V`` rebuilds the body (:func:`passcheck.generate.elem_variants.retyped`).
The body's one computing node is the first of :data:`COMBINE` whose schema at the model's opset allows the type
(``Add``; ``Or`` for bool; ``StringConcat`` for string from opset 20; else ``Identity``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import onnx
import onnx.helper
import onnx.numpy_helper

OPS = ("If", "Loop", "Scan")


def _vi(name: str, elem: int, rank: int) -> onnx.ValueInfoProto:
    """A body value of ``elem`` and ``rank``, its dims anonymous (onnxruntime requires a shape
    field on Loop/Scan body inputs and outputs; the sizes are the graph inputs')."""
    return onnx.helper.make_tensor_value_info(name, elem, [None] * rank)


#: Ops a body combines its two values with, in the order tried (:func:`combine`); Identity reads one.
COMBINE = ("Add", "Or", "StringConcat", "Identity")


def combine(elem: int, opset: int) -> str:
    """The first op of :data:`COMBINE` whose default-domain schema at ``opset`` allows ``elem`` for its input
    constraint (Operators.md Add: numeric types; Or: bool; StringConcat-20: string; Identity: every tensor type).
    Whether onnxruntime runs it is the gate's question (a missing kernel is the tool's drop)."""
    import onnx.defs

    t = f"tensor({onnx.helper.tensor_dtype_to_string(elem).removeprefix('TensorProto.').lower()})"
    for op in COMBINE:
        try:
            schema = onnx.defs.get_schema(op, opset)
        except onnx.defs.SchemaError:
            continue
        param = schema.inputs[0].type_str
        if t in next((c.allowed_type_strs for c in schema.type_constraints if c.type_param_str == param), ()):
            return op
    return "Identity"


def _node(op: str, a: str, b: str, out: str) -> onnx.NodeProto:
    return onnx.helper.make_node(op, [a] if op == "Identity" else [a, b], [out])


def _branch(name: str, elem: int, out: str, values: list[float]) -> onnx.GraphProto:
    arr = np.asarray(values, dtype=onnx.helper.tensor_dtype_to_np_dtype(elem))
    const = onnx.helper.make_node("Constant", [], [out], value=onnx.numpy_helper.from_array(arr, name + "_value"))
    return onnx.helper.make_graph([const], name, [], [onnx.helper.make_tensor_value_info(out, elem, list(arr.shape))])


def graph_attrs(schema: onnx.defs.OpSchema, dtypes: dict[str, int], rank: int, opset: int = 0) -> dict[str, Any]:
    """The graph attributes (and ``num_scan_inputs``) of ``schema``'s recipe; {} for other ops.

    ``dtypes``: type parameter → elem type (the variadic ``V`` of all three ops); ``rank``: the
    rank of the recipe's data inputs (Loop's carried value, Scan's state and scan input); ``opset``: the
    model's default-domain opset (0: the schema's ``since_version``), which picks the body's op (:func:`combine`)."""
    if schema.domain or schema.name not in OPS:
        return {}
    elem = dtypes.get("V", onnx.TensorProto.FLOAT)
    op = combine(elem, opset or schema.since_version)
    if schema.name == "If":
        return {
            "then_branch": _branch("then", elem, "outputs_0", [1, 2, 3]),
            "else_branch": _branch("else", elem, "outputs_0", [4, 5, 6]),
        }
    if schema.name == "Loop":
        body = onnx.helper.make_graph(
            [
                onnx.helper.make_node("Identity", ["cond_in"], ["cond_out"]),
                _node(op, "v_in", "v_in", "v_out"),
            ],
            "loop_body",
            [
                _vi("iteration_num", onnx.TensorProto.INT64, 0),
                _vi("cond_in", onnx.TensorProto.BOOL, 0),
                _vi("v_in", elem, rank),
            ],
            [_vi("cond_out", onnx.TensorProto.BOOL, 0), _vi("v_out", elem, rank)],
        )
        return {"body": body}
    state = rank - 1 if schema.since_version < 9 else rank  # Scan-8: per batch item
    x = rank - 2 if schema.since_version < 9 else rank - 1
    body = onnx.helper.make_graph(
        [
            _node(op, "state_in", "x", "state_out"),
            onnx.helper.make_node("Identity", ["x"], ["y"]),
        ],
        "scan_body",
        [_vi("state_in", elem, state), _vi("x", elem, x)],
        [_vi("state_out", elem, state), _vi("y", elem, x)],
    )
    return {"body": body, "num_scan_inputs": 1}


def mistyped(schema: onnx.defs.OpSchema, attrs: dict[str, Any], dtypes: dict[str, int]) -> str | None:
    """The first body value of a Loop / Scan / If node whose element type is not the one ``V`` is bound to in
    ``dtypes`` (Operators.md: Loop's body inputs after ``iteration_num`` and ``cond`` and its outputs after
    ``cond``, every Scan body input and output, If's branch outputs are ``V`` values), as ``"<graph>: <value>
    is <type>, V is <type>"``; None when they follow ``V`` (or the op has no bodies, or ``V`` is unbound)."""
    if schema.domain or schema.name not in OPS or "V" not in dtypes:
        return None
    skip_in, skip_out = (2, 1) if schema.name == "Loop" else (0, 0)
    for key in ("body", "then_branch", "else_branch"):
        g = attrs.get(key)
        if not isinstance(g, onnx.GraphProto):
            continue
        values = list(g.input)[skip_in:] + list(g.output)[skip_out:]
        for v in values:
            elem = v.type.tensor_type.elem_type
            if v.type.HasField("tensor_type") and elem and elem != dtypes["V"]:
                name = onnx.helper.tensor_dtype_to_string
                return f"{g.name}: {v.name} is {name(elem)}, V is {name(dtypes['V'])}"
    return None
