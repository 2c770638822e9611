"""onnx.version_converter.convert_version on a model whose node calls a model-local function: the output
must still define it (IR.md, model-local functions). No passcheck."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import version_converter

f = h.make_function(
    "local", "Flat", ["a"], ["b"], [h.make_node("Flatten", ["a"], ["b"], axis=1)], [h.make_opsetid("", 13)]
)
g = h.make_graph(
    [h.make_node("Flat", ["x"], ["y"], domain="local")],
    "g",
    [h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])],
    [h.make_tensor_value_info("y", T.FLOAT, [2, 12])],
)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 13), h.make_opsetid("local", 1)], functions=[f], ir_version=8)
onnx.checker.check_model(m, full_check=True)
out = version_converter.convert_version(m, 18)
print("onnx", onnx.__version__, "functions before", len(m.functions), "after", len(out.functions))
try:
    ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(
        None, {"x": np.zeros((2, 3, 4), np.float32)}
    )
    print("  runs")
except Exception as e:
    print("  onnxruntime", ort.__version__, ":", str(e)[:140])
raise SystemExit(0 if len(out.functions) == len(m.functions) else 1)
