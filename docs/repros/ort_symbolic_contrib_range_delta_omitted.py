"""onnxruntime's symbolic shape inference (``onnxruntime/tools/symbolic_shape_infer.py``, also run by
``quant_pre_process``) raises "IndexError: list index out of range" on a com.microsoft Range whose optional ``delta``
is left out. onnxruntime's contrib schema makes ``delta`` optional ("Number that increments start. Defaults to 1."),
and onnxruntime runs the node (start 1, limit 7: ``[1, 2, 3, 4, 5, 6]``); the tool's handler table is keyed by op
type alone, so the node meets ``_infer_Range``, written for the ai.onnx Range whose three inputs are required, which
reads ``input_data[2]`` once start and limit are constants. The same node with ``delta`` given as 1 is inferred
(``[6]``). Exits 1 while the omitted form raises and the given form is inferred."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference


def model(with_delta):
    inits = [nh.from_array(np.array(v, np.float32), n) for n, v in (("start", 1.0), ("limit", 7.0), ("delta", 1.0))]
    node = h.make_node("Range", ["start", "limit"] + (["delta"] if with_delta else []), ["y"], domain="com.microsoft")
    g = h.make_graph([node], "g", [], [h.make_tensor_value_info("y", T.FLOAT, [None])], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)], ir_version=8)


def infer(m):
    try:
        out = SymbolicShapeInference.infer_shapes(m)
    except Exception as exc:  # noqa: BLE001 - the raise is what is reported
        return f"raises {type(exc).__name__}: {exc}"
    return "infers " + str([d.dim_value or d.dim_param for d in out.graph.output[0].type.tensor_type.shape.dim])


print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
omitted, given = model(False), model(True)
onnx.checker.check_model(omitted)
run = ort.InferenceSession(omitted.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {})[0]
print("onnxruntime runs the node without delta:", run.tolist())
a, b = infer(omitted), infer(given)
print("delta left out:", a)
print("delta given as 1:", b)
sys.exit(1 if a.startswith("raises") and b.startswith("infers") else 0)
