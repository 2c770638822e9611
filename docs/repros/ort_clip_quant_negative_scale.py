"""onnxruntime 1.32.0 ClipQuantFusion (core/optimizer/qdq_transformer/clip_quantizelinear.cc) removes
y = QuantizeLinear(Clip(x, 0, 6), s, z) 's Clip when [0, 6] covers the range the quantization can represent,
computed as s * [qmin - z, qmax - z]: with a negative scale (QuantizeLinear does not restrict its sign) that interval
is reversed, the Clip is removed though it changes the result. uint8 z = 0, s = -0.0235: the quantization
represents [-6, 0], so the Clip (which maps every x into [0, 6]) makes the output all 0; without it the negative
inputs quantize to 17..255. Observed at ORT_ENABLE_EXTENDED for Clip-6 (bounds as attributes, opset 10); the same
model at opset 13 (bounds as inputs) keeps its Clip and agrees. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

bad = []
for opset in (10, 13):
    if opset < 11:
        clip = helper.make_node("Clip", ["x"], ["c"], min=0.0, max=6.0)
        bounds = []
    else:
        clip = helper.make_node("Clip", ["x", "lo", "hi"], ["c"])
        bounds = [numpy_helper.from_array(np.array(v, np.float32), n) for v, n in ((0, "lo"), (6, "hi"))]
    graph = helper.make_graph(
        [clip, helper.make_node("QuantizeLinear", ["c", "s", "z"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [16])],
        [helper.make_tensor_value_info("y", TensorProto.UINT8, [16])],
        [numpy_helper.from_array(np.array(-0.0235, np.float32), "s"),
         numpy_helper.from_array(np.array(0, np.uint8), "z"), *bounds],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    onnx.checker.check_model(model, full_check=True)  # the input is valid
    x = np.linspace(-6, 6, 16).astype(np.float32)
    out = {}
    for level in (ort.GraphOptimizationLevel.ORT_DISABLE_ALL, ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED):
        so = ort.SessionOptions()
        so.graph_optimization_level = level
        out[level] = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(
            None, {"x": x}
        )[0]
    want, got = out.values()
    print(f"opset {opset}: unoptimized {want.tolist()}\n          extended    {got.tolist()}")
    if not np.array_equal(want, got):
        bad.append(opset)
if bad:
    print("BUG: ORT_ENABLE_EXTENDED computes other numbers at opsets", bad)
    sys.exit(1)
print("ok")
