"""onnxruntime keeps a main-graph Scan's output shape as declared ([?, ?]) in the optimized model it saves, while
the same Scan written inside a model-local function (inlined by onnxruntime) gets the shape its inference gives,
[N, 4] (onnx shape inference gives [N, 4] for both models).

Both models compute y = Scan over the rows of x: yi = Relu(xi) * 0.5; x: float[N, 4]; y declared float[?, ?]
(two dims with neither value nor name: IR.md, a dim with no value asserts nothing). The second spells the Scan as
a call of a model-local function whose body is that node (IR.md §Functions). Optimized at ORT_ENABLE_BASIC and
saved (`optimized_model_filepath`). Exits 1 while the main-graph model's saved y stays [?, ?] and the function
model's is [N, 4]; 0 once both agree.
"""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

F = TensorProto.FLOAT


def scan_node(name: str, x: str, y: str) -> onnx.NodeProto:
    body = helper.make_graph(
        [helper.make_node("Relu", ["xi"], ["br"]), helper.make_node("Mul", ["br", "kb"], ["yi"])],
        "body",
        [helper.make_tensor_value_info("xi", F, [4])],
        [helper.make_tensor_value_info("yi", F, [4])],
        [numpy_helper.from_array(np.array(0.5, np.float32), "kb")],
    )
    return helper.make_node("Scan", [x], [y], name=name, body=body, num_scan_inputs=1)


def model(in_function: bool) -> onnx.ModelProto:
    ios = ([helper.make_tensor_value_info("x", F, ["N", 4])], [helper.make_tensor_value_info("y", F, [None, None])])
    opsets = [helper.make_opsetid("", 17)]
    if not in_function:
        return helper.make_model(helper.make_graph([scan_node("scan", "x", "y")], "g", *ios), opset_imports=opsets)
    fn = helper.make_function("local", "scan_fn", ["x"], ["y"], [scan_node("body", "x", "y")], opsets)
    g = helper.make_graph([helper.make_node("scan_fn", ["x"], ["y"], name="scan", domain="local")], "g", *ios)
    return helper.make_model(
        g, opset_imports=[*opsets, helper.make_opsetid("local", 1)], functions=[fn], ir_version=8
    )


def saved_shape(m: onnx.ModelProto) -> list:
    onnx.checker.check_model(m, full_check=True)
    path = os.path.join(tempfile.mkdtemp(), "opt.onnx")
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    so.optimized_model_filepath = path
    so.log_severity_level = 3
    s = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    assert s.run(None, {"x": np.ones([3, 4], np.float32)})[0].shape == (3, 4)
    (y,) = onnx.load(path).graph.output
    return [d.dim_param or (d.dim_value if d.HasField("dim_value") else "?") for d in y.type.tensor_type.shape.dim]


main, func = saved_shape(model(False)), saved_shape(model(True))
inferred = [
    [d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim]
    for v in (onnx.shape_inference.infer_shapes(model(f)).graph.output[0] for f in (False, True))
]
print(f"onnxruntime {ort.__version__}, onnx {onnx.__version__}")
print(f"saved y, Scan in the main graph: {main}; Scan in a model-local function: {func}; onnx infers {inferred}")
if main != func:
    print("BUG: the same Scan's output shape depends on whether it was written in a function")
    sys.exit(1)
print("ok: both forms give y the same shape")
