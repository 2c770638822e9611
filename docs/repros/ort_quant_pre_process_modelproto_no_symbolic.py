"""onnxruntime 1.32.0 quant_pre_process(model_proto, out_path, skip_symbolic_shape=True): given a ModelProto (its
signature takes one) and no symbolic shape inference, the optimization step moves the initializers' raw data out of
the caller's ModelProto (extract_raw_data_from_model leaves placeholder external-data locations in it) and hands them
to onnxruntime as external initializers. With an initializer no node reads (valid: IR.md), onnxruntime removes it
first and refuses the external one ("Failed to find existing initializer with name unused"); the failure is only
logged, and the onnx shape inference that follows reads the emptied ModelProto: "Data of TensorProto ( tensor name:
w) should be stored in .../foo.bin, but it is not regular file". The same model given as a path is pre-processed.
Exit 1 while the bug is present."""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxruntime.quantization.shape_inference import quant_pre_process

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
rng = np.random.default_rng(0)
graph = helper.make_graph(
    [
        helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "s", "bb", "m", "v"], ["n"]),
        helper.make_node("Relu", ["n"], ["y"]),
    ],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 2, 6, 6])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, ["N", 3, 6, 6])],
    initializer=[
        numpy_helper.from_array(rng.standard_normal((3, 2, 3, 3)).astype(np.float32), "w"),
        numpy_helper.from_array(rng.standard_normal(3).astype(np.float32), "b"),
        *(numpy_helper.from_array(rng.uniform(0.5, 1.5, 3).astype(np.float32), n) for n in ("s", "bb", "m", "v")),
        numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "unused"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
d = tempfile.mkdtemp()
onnx.save(model, os.path.join(d, "in.onnx"))
quant_pre_process(os.path.join(d, "in.onnx"), os.path.join(d, "from_path.onnx"), skip_symbolic_shape=True)
print("given a path: ok,", [n.op_type for n in onnx.load(os.path.join(d, "from_path.onnx")).graph.node])
try:
    quant_pre_process(model, os.path.join(d, "from_proto.onnx"), skip_symbolic_shape=True)
except Exception as exc:  # noqa: BLE001
    print("BUG: given the ModelProto:", type(exc).__name__, " ".join(str(exc).split())[:200])
    sys.exit(1)
print("given the ModelProto: ok")
