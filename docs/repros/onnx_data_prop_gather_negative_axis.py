"""onnx's data propagation (``infer_shapes(..., data_prop=True)``) carries a shape value through
``Gather(Shape(x), i, axis=0)`` but not through the same Gather written ``axis=-1`` (onnx 1.16.2 and 1.17.0; 1.18.0
and later carry both).

Gather-13 accepts ``axis`` in [-r, r-1], a negative value counting from the back (Operators.md Gather), so on the 1-D
output of Shape ``axis=-1`` is ``axis=0``. ``y = ConstantOfShape(Mul(Gather(Shape(x), [2], axis), [2]))`` with
``x: float[N, 4, 6]`` is ``float[12]`` either way (onnxruntime and onnx's reference evaluator); with ``axis=-1`` the
propagated value is lost and ``y`` is inferred ``[unk__0]``.

Needs onnx, onnxruntime, numpy. Exits 1 while the ``axis=-1`` spelling is inferred less precisely than ``axis=0``.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession


def model(axis):
    graph = helper.make_graph(
        [
            helper.make_node("Shape", ["x"], ["s"]),
            helper.make_node("Gather", ["s", "i"], ["d"], axis=axis),
            helper.make_node("Mul", ["d", "two"], ["n"]),
            helper.make_node("ConstantOfShape", ["n"], ["y"]),
        ],
        "gather_shape_axis",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["m"])],
        [
            numpy_helper.from_array(np.array([2], np.int64), "i"),
            numpy_helper.from_array(np.array([2], np.int64), "two"),
        ],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


x = {"x": np.zeros((3, 4, 6), np.float32)}
got = {}
for axis in (0, -1):
    m = model(axis)
    ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0].shape
    ref = ReferenceEvaluator(m).run(None, x)[0].shape
    m.graph.output[0].type.tensor_type.shape.dim[0].ClearField("dim_param")  # let inference write what it knows
    t = onnx.shape_inference.infer_shapes(m, data_prop=True).graph.output[0].type.tensor_type
    got[axis] = [d.dim_value if d.HasField("dim_value") else d.dim_param for d in t.shape.dim]
    print(
        f"onnx {onnx.__version__}, Gather axis={axis}: runs {list(ran)} (reference {list(ref)}); inferred y {got[axis]}"
    )
if got[0] == [12] and got[-1] != [12]:
    print("BUG: data propagation drops the shape value through Gather written with axis=-1")
    sys.exit(1)
print("ok: both spellings are inferred alike")
