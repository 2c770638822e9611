"""onnxruntime's symbolic shape inference (`SymbolicShapeInference._onnx_infer_single_node`,
`tools/symbolic_shape_infer.py`) infers an op without a handler of its own by running onnx's shape inference on a
one-node graph, and gives that graph the node's constant inputs only for Unsqueeze ("Operator need value of some
input for shape inference. For example, Unsqueeze in opset 13 uses the axes input", its own comment). From opset 18
ReduceL1 / ReduceL2 / ReduceLogSum / ReduceLogSumExp / ReduceMax / ReduceMin / ReduceSumSquare take `axes` as an
input (Operators.md, version 18), whose value onnx's inference needs: with the initializer dropped the output's rank
is lost, and the next reader's handler (here a Mul) raises "TypeError: object of type 'NoneType' has no len()".
onnx's own inference of the same model gives `[2, 1, 4]`. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

OPS = ("ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp", "ReduceMax", "ReduceMin", "ReduceSumSquare")
failed = []
for op in OPS:
    graph = helper.make_graph(
        [helper.make_node(op, ["x", "axes"], ["r"]), helper.make_node("Mul", ["r", "two"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 1, 4])],
        [
            numpy_helper.from_array(np.array([1], np.int64), "axes"),
            numpy_helper.from_array(np.array(2.0, np.float32), "two"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    onnx.checker.check_model(model, full_check=True)
    want = onnx.shape_inference.infer_shapes(model).graph.output[0].type.tensor_type.shape
    assert [d.dim_value for d in want.dim] == [2, 1, 4], want
    try:
        SymbolicShapeInference.infer_shapes(model)
        print(f"{op}: inferred")
    except Exception as exc:  # noqa: BLE001
        failed.append(op)
        print(f"BUG: {op}-18 with an initializer axes, then Mul: {type(exc).__name__}: {exc}")
print("ok" if not failed else f"{len(failed)} of {len(OPS)} ops fail")
sys.exit(1 if failed else 0)
