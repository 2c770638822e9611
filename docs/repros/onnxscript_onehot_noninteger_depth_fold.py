"""onnxscript 0.7.2's `optimize` folds a constant OneHot with onnx 1.23.2's reference implementation
(`onnx/reference/ops/op_one_hot.py`), which does not cast a non-integer `depth` or `indices` to int64 as
Operators.md says (OneHot-11: "In case 'depth' is of non-integer type, it will be casted to int64 before use",
and the same for 'indices'): `np.arange(3.03)` gives 4 classes, and `2.02 == 2` matches no class. The folded
constant has another shape ([3, 4] for [3, 3]) or other values than onnxruntime computes on the unoptimized
model, which follows the spec. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxscript.optimizer
from onnx import helper, numpy_helper
from onnx.reference import ReferenceEvaluator


def model(indices, depth, out_type, rows):
    graph = helper.make_graph(
        [helper.make_node("OneHot", ["indices", "depth", "values"], ["y"])],
        "g",
        [],
        [helper.make_tensor_value_info("y", out_type, [3, rows])],
        [
            numpy_helper.from_array(indices, "indices"),
            numpy_helper.from_array(depth, "depth"),
            numpy_helper.from_array(np.array([0, 1], onnx.helper.tensor_dtype_to_np_dtype(out_type)), "values"),
        ],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 11)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def spec(indices, depth):  # Operators.md OneHot: non-integer indices and depth cast to int64 first
    return np.eye(int(np.asarray(depth).astype(np.int64)))[np.asarray(indices).astype(np.int64)]


cases = {
    "float depth 3.03": (np.array([0, 2, 1], np.int32), np.array(3.03, np.float32), onnx.TensorProto.FLOAT),
    "float indices [0, 2.02, 1.01]": (
        np.array([0, 2.02, 1.01], np.float32),
        np.array(3, np.int64),
        onnx.TensorProto.INT64,
    ),
}
wrong = 0
for name, (indices, depth, out_type) in cases.items():
    expected = spec(indices, depth)
    m = model(indices, depth, out_type, expected.shape[1])
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    runtime = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, {})[0]
    reference = ReferenceEvaluator(m).run(None, {})[0]
    folded = onnxscript.optimizer.optimize(m)
    assert not folded.graph.node, "expected the OneHot folded into the output initializer"
    value = numpy_helper.to_array(next(t for t in folded.graph.initializer if t.name == "y"))
    ok = value.shape == expected.shape and np.array_equal(value, expected)
    wrong += not ok
    print(
        f"{name}: spec {expected.shape}, onnxruntime {runtime.shape} equal={np.array_equal(runtime, expected)}, "
        f"onnx.reference {reference.shape}, onnxscript folded {value.shape} equal={ok}"
    )
sys.exit(1 if wrong else 0)
