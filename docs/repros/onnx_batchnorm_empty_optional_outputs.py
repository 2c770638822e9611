"""onnx shape inference: BatchNormalization-14/15 in inference mode with its optional outputs written as "" is
refused. IR.md §Optional Inputs and Outputs: an optional output may be left off the end of the list or written
as an empty name, and the two spellings mean the same node; Operators.md BatchNormalization-15, output case #2:
``Y`` alone when training_mode=False. ``Y, "", ""`` presents Y alone, yet the inference function counts output
slots, not present outputs, and the full checker, strict inference and onnxruntime (which runs onnx's inference
at load) refuse the form while accepting ``Y``. Exits 1 while the empty-named form is refused and the other
accepted."""

import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def model(outputs):
    x = h.make_tensor_value_info("x", T.FLOAT, [2, 3, 4])
    y = h.make_tensor_value_info("y", T.FLOAT, [2, 3, 4])
    inits = [nh.from_array(np.ones(3, np.float32), n) for n in ("s", "b", "m", "v")]
    node = h.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], outputs)
    g = h.make_graph([node], "g", [x], [y], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 15)], ir_version=8)


def refused(m):
    try:
        onnx.checker.check_model(m, full_check=True)
        return None
    except Exception as e:  # noqa: BLE001 - the checker's own exception types
        return str(e).strip().splitlines()[0][:200]


print("onnx", onnx.__version__)
omitted, empty = refused(model(["y"])), refused(model(["y", "", ""]))
print("Y alone:", omitted or "accepted")
print('Y, "", "":', empty or "accepted")
sys.exit(1 if empty and not omitted else 0)
