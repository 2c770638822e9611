"""onnx's reference evaluator (``onnx.reference``, ``ops/op_roi_align.py``) computes RoiAlign-10 with the half-pixel
shift RoiAlign-16 introduced (onnx 1.23.2).

RoiAlign-10 has no ``coordinate_transformation_mode``: its coordinates are not shifted. RoiAlign-16 added the
attribute with the default ``half_pixel`` and says of ``output_half_pixel`` "to omit the pixel shift for the input
(use this for a backward-compatible behavior)". The evaluator's one RoiAlign class fills in the opset-16 default for
every version, so a RoiAlign-10 node is computed as ``half_pixel``; onnxruntime computes the unshifted sampling.
Expected here: the RoiAlign-16 node with ``output_half_pixel`` on the same inputs, by onnxruntime.

Needs onnx, onnxruntime, numpy. Exits 1 while the evaluator's RoiAlign-10 differs from the unshifted result.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

x = np.random.default_rng(0).standard_normal((1, 1, 4, 4)).astype(np.float32)
rois = np.array([[0, 0, 2, 2], [1, 1, 3, 3]], np.float32)
batch = np.array([0, 0], np.int64)


def model(opset: int, **attrs) -> onnx.ModelProto:
    graph = helper.make_graph(
        [helper.make_node("RoiAlign", ["x", "rois", "b"], ["y"], output_height=2, output_width=2, **attrs)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 1, 2, 2])],
        [numpy_helper.from_array(rois, "rois"), numpy_helper.from_array(batch, "b")],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=7)
    onnx.checker.check_model(m, full_check=True)
    return m


def ort(m: onnx.ModelProto) -> np.ndarray:
    return InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


expected = ort(model(16, coordinate_transformation_mode="output_half_pixel"))
m10 = model(10)
e_ort = float(np.abs(ort(m10) - expected).max())
e_ref = float(np.abs(ReferenceEvaluator(m10).run(None, {"x": x})[0] - expected).max())
print(f"onnx {onnx.__version__}, RoiAlign-10: |onnxruntime - unshifted| {e_ort:.3g}, |reference - unshifted| {e_ref:.3g}")
if e_ref > 1e-4:
    print("BUG: the reference evaluator shifts RoiAlign-10's coordinates by half a pixel")
    sys.exit(1)
print("ok")
