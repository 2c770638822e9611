"""onnxruntime: a com.microsoft QLinearAdd / QLinearMul whose optional A_zero_point or B_zero_point, or a
QLinearAveragePool whose optional x_zero_point, is left out by an empty name ("") is refused when the session is
created: "[TypeInferenceError] Input data type does not match the expected data type". IR.md §Nodes: an optional input
may be left out by an empty name; ContribOperators.md: each of these zero points is optional, "Default value is 0 if
it's not specified". onnxruntime's shape inference for the quantization ops
(``onnxruntime/core/graph/contrib_ops/quantization_defs.cc``, ``ValidateTypeAndShapeForScaleAndZP``) checks only that
the node has more inputs than the zero point's index, then fails when that input has no type, which an empty name
never has. The same node with the zero point given as 0 runs, and so does one that leaves out a trailing zero point
(C_zero_point, y_zero_point). Exits 1 while an empty-name zero point is refused and the given-as-0 node runs."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def model(op, inputs, x_shape, y_shape, **attrs):
    inits = [nh.from_array(np.array(v, np.float32), n) for n, v in (("s1", 0.1), ("s2", 0.2), ("s3", 0.3))]
    inits.append(nh.from_array(np.array(0, np.int8), "zero"))
    node = h.make_node(op, inputs, ["y"], domain="com.microsoft", **attrs)
    feeds = [h.make_tensor_value_info(n, T.INT8, x_shape) for n in ("a", "b") if n in inputs]
    g = h.make_graph([node], "g", feeds, [h.make_tensor_value_info("y", T.INT8, y_shape)], inits)
    return h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)], ir_version=8)


def run(m):
    onnx.checker.check_model(m)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        s = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    except Exception as exc:  # noqa: BLE001 - the refusal is what is reported
        return "refused: " + str(exc).splitlines()[0][:160]
    shape = [d.dim_value for d in m.graph.input[0].type.tensor_type.shape.dim]
    x = np.arange(-6, 6, dtype=np.int8).reshape(shape)
    return "runs: " + str(s.run(None, {i.name: x for i in m.graph.input})[0].ravel()[:4].tolist())


print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
bug = False
cases = [
    ("QLinearAdd", ["a", "s1", "{z}", "b", "s2", "zero", "s3", "zero"], [2, 6], [2, 6], {}),
    ("QLinearMul", ["a", "s1", "zero", "b", "s2", "{z}", "s3", "zero"], [2, 6], [2, 6], {}),
    ("QLinearAveragePool", ["a", "s1", "{z}", "s2", "zero"], [1, 1, 3, 4], [1, 1, 2, 3], {"kernel_shape": [2, 2]}),
]
for op, names, x_shape, y_shape, attrs in cases:
    given = run(model(op, [n.format(z="zero") for n in names], x_shape, y_shape, **attrs))
    empty = run(model(op, [n.format(z="") for n in names], x_shape, y_shape, **attrs))
    print(f"{op}, the zero point given as 0: {given}")
    print(f'{op}, the zero point written "": {empty}')
    bug |= given.startswith("runs") and empty.startswith("refused")
sys.exit(1 if bug else 0)
