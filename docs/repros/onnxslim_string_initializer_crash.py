"""onnxslim (`onnxslim.slim(m)`) on a model holding a string initializer: `y = Concat(x, k)`, `x: string[2]` fed,
`k` a string initializer `["a", "bc"]` (Operators.md Concat takes any tensor type; the checker accepts the model and
onnxruntime runs it). Its vendored onnx_graphsurgeon exporter (`constant_to_onnx_tensor`) writes every constant as
`raw_data`, which onnx keeps from string tensors (onnx.proto TensorProto: strings live in `string_data`):
`TypeError: Can not use raw_data to store string type`. The same model with a float initializer is slimmed.
Exit 1 while a string initializer crashes it."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxslim
from onnx import TensorProto, helper, numpy_helper


def model(elem, values):
    k = numpy_helper.from_array(np.array(values, dtype=object if elem == TensorProto.STRING else np.float32), "k")
    g = helper.make_graph(
        [helper.make_node("Concat", ["x", "k"], ["y"], axis=0)],
        "g",
        [helper.make_tensor_value_info("x", elem, [2])],
        [helper.make_tensor_value_info("y", elem, [4])],
        [k],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    x = np.array(values, dtype=object if elem == TensorProto.STRING else np.float32)
    ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    return m


out = {}
for name, elem, values in (("float", TensorProto.FLOAT, [1.0, 2.0]), ("string", TensorProto.STRING, ["a", "bc"])):
    try:
        onnxslim.slim(model(elem, values))
        out[name] = "slimmed"
    except Exception as e:  # the exporter's error is a TypeError
        out[name] = f"{type(e).__name__}: {e}"
print("onnx", onnx.__version__, "| onnxruntime", ort.__version__, "| onnxslim", onnxslim.__version__, out)
if out["string"] != "slimmed":
    print("BUG: onnxslim crashes on a model with a string initializer")
    sys.exit(1)
print("ok")
