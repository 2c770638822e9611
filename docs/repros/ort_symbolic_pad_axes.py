"""onnxruntime 1.32.0, tools/symbolic_shape_infer.py (``ort:symbolic-shape-infer``, and the symbolic step of
``quantization.shape_inference.quant_pre_process``): SymbolicShapeInference._infer_Pad reads ``pads`` as
``2 * rank`` values in axis order and ignores Pad-18's optional ``axes`` input (Operators.md Pad-18: pads then holds
``2 * len(axes)`` values, for the listed axes in their order). With fewer axes than the rank it raises
AssertionError (``assert len(pads) == 2 * rank``); with every axis listed in another order it writes a wrong output
shape, which onnxruntime then contradicts. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)


def model(pads, axes):
    inits = [numpy_helper.from_array(np.array(v, np.int64), n) for v, n in ((pads, "pads"), (axes, "axes"))]
    nodes = [helper.make_node("Pad", ["x", "pads", "", "axes"], ["y"])]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b", "c"])],
        initializer=inits,
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


x = np.zeros((2, 3, 4), np.float32)
failed = False
for pads, axes in (([1, 1, 1, 1], [1, 2]), ([2, 0, 0, 0, 0, 0], [2, 1, 0])):
    m = model(pads, axes)
    actual = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0].shape
    try:
        out = SymbolicShapeInference.infer_shapes(m)
    except AssertionError:
        print(f"BUG: pads={pads} axes={axes}: AssertionError in _infer_Pad (onnxruntime runs it: {actual})")
        failed = True
        continue
    dims = tuple(d.dim_value or d.dim_param for d in out.graph.output[0].type.tensor_type.shape.dim)
    print(f"pads={pads} axes={axes}: inferred {dims}, onnxruntime gives {actual}")
    if dims != actual:
        print("BUG: the inferred shape does not hold")
        failed = True
sys.exit(1 if failed else 0)
