"""onnxscript 0.7.2 rewrite() (rules FuseMaxMinToClip / FuseMinMaxToClip, rewriter/rules/common/_min_max_to_clip.py)
accepts any one-element bound (`np.size(v) == 1`) and writes Clip(x, lo, hi) with the bound reduced to a scalar.
A bound of shape [1, 1] broadcasts x: [4] to [1, 4] under Min/Max (multidirectional broadcasting); Clip does
not broadcast (its output has x's shape). The rewritten model's output is [4] where [1, 4] holds: the checker
rejects it and onnxruntime returns another shape. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxscript.rewriter
from onnx import helper, numpy_helper

graph = helper.make_graph(
    [helper.make_node("Max", ["x", "lo"], ["t"]), helper.make_node("Min", ["t", "hi"], ["y"])],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [4])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 4])],
    [
        numpy_helper.from_array(np.full((1, 1), -0.5, np.float32), "lo"),
        numpy_helper.from_array(np.array(0.5, np.float32), "hi"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = onnxscript.rewriter.rewrite(model)
print([(n.op_type, list(n.input)) for n in out.graph.node])
x = np.linspace(-1, 1, 4).astype(np.float32)
want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
problems = []
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001 - the checker's inference error names the rank change
    problems.append(str(exc).strip().splitlines()[-1])
out.graph.output[0].type.tensor_type.ClearField("shape")  # let onnxruntime run it to show the shape it computes
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
if got.shape != want.shape:
    problems.append(f"output shape {got.shape}, unoptimized {want.shape}")
if problems:
    print("BUG:", *problems, sep="\n  ")
    sys.exit(1)
print("ok")
