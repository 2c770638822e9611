"""onnxruntime's QNN pre-processing (`qnn_preprocess_model(model, out)`, given a ModelProto) empties the caller's
model: its first step (`save_and_reload_optimize_model`) saves the given ModelProto with
`onnx.save_model(model, path, save_as_external_data=True)`, which moves every initializer of 1024 bytes or more out
of that very proto into a file of a temporary folder it then deletes. The caller's model keeps `data_location:
EXTERNAL` references to a file that no longer exists: the checker refuses it ("should be stored in ….data, but it
is not regular file") and it can no longer be run or saved with its weights — even when the function returns False,
the case in which its documented usage (microsoft/onnxruntime#18719) goes on with the given model.

Model (opset 17): y = MatMul(x, w), x: float[2, 64], w an initializer float[64, 64] (16 KiB, raw data). Exits 1
while the caller's ModelProto differs after the call, 0 when fixed (the function works on a copy)."""

import logging
import os
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization.execution_providers.qnn.preprocess import qnn_preprocess_model

if __name__ == "__main__":
    logging.disable(logging.WARNING)
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
    w = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["y"], name="mm")],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 64])],
        [numpy_helper.from_array(w, "w")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(model, full_check=True)
    before = model.SerializeToString()
    with tempfile.TemporaryDirectory() as d:
        returned = qnn_preprocess_model(model, os.path.join(d, "preprocessed.onnx"))
    t = model.graph.initializer[0]
    changed = model.SerializeToString() != before
    print(f"returned {returned}; the caller's model changed: {changed}")
    print(
        f"w: data_location {t.data_location}, {len(t.raw_data)} raw bytes, external_data {[e.value for e in t.external_data]}"
    )
    try:
        onnx.checker.check_model(model, full_check=True)
        print("the caller's model: the checker accepts it")
    except onnx.checker.ValidationError as e:
        print("the caller's model: the checker refuses it:", str(e).splitlines()[0][:160])
    raise SystemExit(1 if changed else 0)
