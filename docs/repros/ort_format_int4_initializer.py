"""onnxruntime writes an ORT format model it cannot load back when the model holds an INT4 or UINT4 initializer.

IR.md's element types include INT4 / UINT4 (IR 10) and onnxruntime runs DequantizeLinear-21 on them from the ONNX
model. Saving that model in the ORT format (the session config ``session.save_model_format = ORT``, what
``onnxruntime.tools.convert_onnx_models_to_ort`` does) succeeds without a word, but the session given the ``.ort``
bytes (``session.load_model_format = ORT``) refuses them: "Unsupported tensor data type ... Invalid ORT format
model" (the format's ``TensorDataType`` enum, ``core/flatbuffers/schema/ort.fbs``, stops before INT4). Either the
writer keeps the tensor in a form its loader reads, or it refuses to write it. Exits 1 while a written ``.ort``
does not load back (for either type); 0 once both round trips give the ONNX model's outputs.
"""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h


def model(elem: int) -> onnx.ModelProto:
    w = h.make_tensor("w", elem, [4], [1, 2, 3, 4])
    g = h.make_graph(
        [h.make_node("DequantizeLinear", ["w", "s"], ["d"]), h.make_node("Add", ["x", "d"], ["y"])],
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, [4])],
        [h.make_tensor_value_info("y", T.FLOAT, [4])],
        [w, h.make_tensor("s", T.FLOAT, [], [0.5])],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 21)], ir_version=10)
    onnx.checker.check_model(m, full_check=True)
    return m


def options() -> ort.SessionOptions:
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return so


print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
x = {"x": np.zeros(4, np.float32)}
failed = False
with tempfile.TemporaryDirectory() as d:
    for name, elem in (("INT4", T.INT4), ("UINT4", T.UINT4)):
        m = model(elem)
        try:
            onnx_session = ort.InferenceSession(m.SerializeToString(), options(), providers=["CPUExecutionProvider"])
        except Exception as exc:  # noqa: BLE001 - a release without the type: nothing to compare
            print(f"{name}: this onnxruntime does not run the ONNX model either: {str(exc).strip()[:120]}")
            continue
        expected = onnx_session.run(None, x)[0]
        path = os.path.join(d, f"{name}.ort")
        so = options()
        so.optimized_model_filepath = path
        so.add_session_config_entry("session.save_model_format", "ORT")
        ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
        print(f"{name}: the ONNX model gives {expected.tolist()}; ORT format written ({os.path.getsize(path)} bytes)")
        so = options()
        so.add_session_config_entry("session.load_model_format", "ORT")
        try:
            got = ort.InferenceSession(path, so, providers=["CPUExecutionProvider"]).run(None, x)[0]
        except Exception as exc:  # noqa: BLE001 - the finding
            print(f"{name}: the .ort file does not load: {str(exc).strip()[:200]}")
            failed = True
            continue
        same = np.array_equal(got, expected)
        print(f"{name}: the .ort session gives {got.tolist()}", "(the same)" if same else "(different)")
        failed |= not same
sys.exit(1 if failed else 0)
