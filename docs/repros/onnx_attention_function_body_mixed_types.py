"""onnx 1.23.2's context-dependent function body of Attention-23 (also -24, -25) multiplies the attention weights,
in Q's type (`T1`), by V, whose type is the separate constraint `T2`: the schema lets Q / K be float16 and V float
(both constraints admit float16, float, double, bfloat16), but the body's `MatMul(weights, V)` needs one type, so
inlining the op (`onnx.inliner.inline_selected_functions(model, [], exclude=True, inline_schema_functions=True)`)
turns a valid model into one the checker refuses ("(op_type:MatMul): B has inconsistent type tensor(float)"). The
body is the op's definition (Operators.md Attention, "Function"), so it must be well-typed for every typing the
schema admits; docs/found.md row 837 is the same gap in RMSNormalization-23. Exit 1 while the bug is present."""

import sys

import onnx
import onnx.inliner
from onnx import helper

F16, F32 = onnx.TensorProto.FLOAT16, onnx.TensorProto.FLOAT
failed = []
for opset in (23, 24, 25):
    graph = helper.make_graph(
        [helper.make_node("Attention", ["Q", "K", "V"], ["Y"])],
        "g",
        [
            helper.make_tensor_value_info("Q", F16, [1, 2, 3, 4]),
            helper.make_tensor_value_info("K", F16, [1, 2, 5, 4]),
            helper.make_tensor_value_info("V", F32, [1, 2, 5, 4]),
        ],
        [helper.make_tensor_value_info("Y", F16, [1, 2, 3, 4])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=10)
    onnx.checker.check_model(model, full_check=True)  # valid: T1 = float16, T2 = float
    inlined = onnx.inliner.inline_selected_functions(model, [], exclude=True, inline_schema_functions=True)
    try:
        onnx.checker.check_model(inlined, full_check=True)
    except Exception as exc:  # noqa: BLE001
        failed.append(f"Attention-{opset}: {str(exc).splitlines()[0][:160]}")
for line in failed:
    print("BUG:", line)
print("ok" if not failed else f"{len(failed)} of 3 opsets give an invalid body")
sys.exit(1 if failed else 0)
