"""onnx-ir 1.1.0 CommonSubexpressionEliminationPass (onnx_ir/passes/common/common_subexpression_elimination.py)
compares attributes as written: of two `Pad(x, pads)` nodes it merges them when both omit `mode`, and keeps both
when one writes `mode="constant"`, the schema default (Pad-13+: an omitted attribute with a default takes it,
IR.md / Operators.md), although the two compute the same value. The same for `QuantizeLinear(..., axis=1)` beside one
without `axis`. Missed optimization (parity between equivalent spellings). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx_ir
import onnx_ir.passes.common
from onnx import helper, numpy_helper

T = onnx.TensorProto.FLOAT


def model(explicit: bool):
    attrs = {"mode": "constant"} if explicit else {}
    graph = helper.make_graph(
        [helper.make_node("Pad", ["x", "pads"], ["p1"]), helper.make_node("Pad", ["x", "pads"], ["p2"], **attrs)],
        "g",
        [helper.make_tensor_value_info("x", T, ["N", 2, 6, 6])],
        [helper.make_tensor_value_info(p, T, ["N", 2, 8, 8]) for p in ("p1", "p2")],
        [numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], dtype=np.int64), "pads")],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def pads_left(m) -> int:
    ir_model = onnx_ir.serde.deserialize_model(m)
    onnx_ir.passes.common.CommonSubexpressionEliminationPass()(ir_model)
    return sum(n.op_type == "Pad" for n in onnx_ir.serde.serialize_model(ir_model).graph.node)


omitted, written = pads_left(model(False)), pads_left(model(True))
print(f"Pad nodes left: mode omitted {omitted}, mode='constant' written on one {written}")
if written != omitted:
    print("BUG: the pass merges the equal Pads only when both omit the default attribute")
    sys.exit(1)
print("ok")
