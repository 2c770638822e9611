"""onnx's shape inference refuses MeanVarianceNormalization-13 with `axes` omitted.

Operators.md MeanVarianceNormalization-13: `axes` defaults to [0, 2, 3]. The op has no inference function of its own;
onnx's shape inference expands `schema->GetFunction()`, the schema's newest body (opset 18's) whatever the model's
opset (shape_inference/implementation.cc), whose `axes = Constant <value_ints: ints = @axes>()` reads the attribute.
`InferShapeForFunctionNodeInternal` binds the caller's attributes and a FunctionProto's own `attribute_proto`
defaults, not the op schema's defaults: with `axes` omitted the Constant has no value and inference fails ("One and
only one of the attributes 'value', 'value_*' or 'sparse_value' must be specified"). So `check_model(full_check=True)`
refuses a valid y = MeanVarianceNormalization(x), x: float[2, 3, 4, 5], at opset 13 and 18, which onnxruntime runs;
onnx's own backend node test `test_mvn` is such a model. Exits 1 while it is refused, 0 once accepted."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
bad = 0
for opset in (13, 18):
    graph = helper.make_graph(
        [helper.make_node("MeanVarianceNormalization", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4, 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 4, 5])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    x = np.random.default_rng(0).standard_normal((2, 3, 4, 5)).astype(np.float32)
    y = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    print(f"opset {opset}: onnxruntime runs it, y {y.shape}")
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as exc:  # noqa: BLE001 - the checker's refusal is the symptom
        print(f"BUG (opset {opset}): the full checker refuses the node:", " ".join(str(exc).split())[-120:])
        bad += 1
sys.exit(1 if bad else 0)
