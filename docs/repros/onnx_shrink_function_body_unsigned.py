"""onnx 1.23.2's function body of Shrink-9 (written for opset 18, used from opset 18 on) computes `Neg` of `lambd`
cast to the input's type, but the schema lets the input be uint8, uint16, uint32 or uint64 (type constraint `T`: every
numeric type) and Neg has no unsigned types: inlining the op (`onnx.inliner.inline_selected_functions(model, [],
exclude=True, inline_schema_functions=True)`) turns a valid model into one the checker refuses ("(op_type:Neg): X
typestr: T, has unsupported type: tensor(uint8)"). The body is the op's definition (Operators.md Shrink, "Function"),
so it must be well-typed for every type the schema admits. Exit 1 while the bug is present."""

import sys

import onnx
import onnx.inliner
from onnx import helper

failed = []
for elem in (onnx.TensorProto.UINT8, onnx.TensorProto.UINT16, onnx.TensorProto.UINT32, onnx.TensorProto.UINT64):
    graph = helper.make_graph(
        [helper.make_node("Shrink", ["x"], ["y"], lambd=0.5, bias=0.0)],
        "g",
        [helper.make_tensor_value_info("x", elem, [2, 3])],
        [helper.make_tensor_value_info("y", elem, [2, 3])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    onnx.checker.check_model(model, full_check=True)  # valid: T admits the unsigned types
    inlined = onnx.inliner.inline_selected_functions(model, [], exclude=True, inline_schema_functions=True)
    try:
        onnx.checker.check_model(inlined, full_check=True)
    except Exception as exc:  # noqa: BLE001
        failed.append(f"{onnx.helper.tensor_dtype_to_np_dtype(elem)}: {str(exc).splitlines()[0][:160]}")
for line in failed:
    print("BUG:", line)
print("ok" if not failed else f"{len(failed)} of 4 unsigned types give an invalid body")
sys.exit(1 if failed else 0)
