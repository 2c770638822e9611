"""onnxruntime 1.32.0 `onnxruntime.quantization.execution_providers.qnn.qnn_preprocess_model` on `y = Relu(x)` whose
model states one metadata_props entry (IR.md §Models, §Optional Metadata: the model's named metadata); opset 18,
IR 8; valid, and onnxruntime runs it. `save_and_reload_optimize_model` (execution_providers/qnn/preprocess.py)
starts a dict `{"onnx.infer": ...}` and calls `dict.update(ret_model.metadata_props)` on the repeated
StringStringEntryProto field whenever it is non-empty: a TypeError, so every model that carries metadata_props is
refused. Exit 1 while the call raises."""

import sys
import tempfile
from pathlib import Path

import onnx
import onnxruntime
from onnx import TensorProto, helper
from onnxruntime.quantization.execution_providers.qnn import qnn_preprocess_model

x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
helper.set_model_props(m, {"author": "a"})
onnx.checker.check_model(m, full_check=True)
with tempfile.TemporaryDirectory() as d:
    src, dst = Path(d, "in.onnx"), Path(d, "out.onnx")
    onnx.save(m, src)
    try:
        qnn_preprocess_model(src, dst)
    except TypeError as exc:
        print(onnxruntime.__version__, "qnn_preprocess_model raised TypeError:", exc)
        print("BUG: a model with metadata_props is refused")
        sys.exit(1)
    out = onnx.load(dst)
print(onnxruntime.__version__, "metadata_props after:", {p.key: p.value for p in out.metadata_props})
print("ok")
