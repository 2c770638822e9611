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
anonymous spelling of the graph inputs holds inside the body too.
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


def _add(elem: int) -> str:
    return "Or" if elem == onnx.TensorProto.BOOL else "Add"


def _branch(name: str, elem: int, out: str, values: list[float]) -> onnx.GraphProto:
    arr = np.asarray(values, dtype=onnx.helper.tensor_dtype_to_np_dtype(elem))
    const = onnx.helper.make_node("Constant", [], [out], value=onnx.numpy_helper.from_array(arr, name + "_value"))
    return onnx.helper.make_graph([const], name, [], [onnx.helper.make_tensor_value_info(out, elem, list(arr.shape))])


def graph_attrs(schema: onnx.defs.OpSchema, dtypes: dict[str, int], rank: int) -> dict[str, Any]:
    """The graph attributes (and ``num_scan_inputs``) of ``schema``'s recipe; {} for other ops.

    ``dtypes``: type parameter → elem type (the variadic ``V`` of all three ops); ``rank``: the
    rank of the recipe's data inputs (Loop's carried value, Scan's state and scan input)."""
    if schema.domain or schema.name not in OPS:
        return {}
    elem = dtypes.get("V", onnx.TensorProto.FLOAT)
    if schema.name == "If":
        return {
            "then_branch": _branch("then", elem, "outputs_0", [1, 2, 3]),
            "else_branch": _branch("else", elem, "outputs_0", [4, 5, 6]),
        }
    if schema.name == "Loop":
        body = onnx.helper.make_graph(
            [
                onnx.helper.make_node("Identity", ["cond_in"], ["cond_out"]),
                onnx.helper.make_node(_add(elem), ["v_in", "v_in"], ["v_out"]),
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
            onnx.helper.make_node(_add(elem), ["state_in", "x"], ["state_out"]),
            onnx.helper.make_node("Identity", ["x"], ["y"]),
        ],
        "scan_body",
        [_vi("state_in", elem, state), _vi("x", elem, x)],
        [_vi("state_out", elem, state), _vi("y", elem, x)],
    )
    return {"body": body, "num_scan_inputs": 1}
