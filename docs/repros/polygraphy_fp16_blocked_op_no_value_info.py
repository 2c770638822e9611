"""Polygraphy's float16 conversion (``polygraphy convert --fp-to-fp16``, ``ConvertToFp16``) leaves a block-listed op
that reads a float initializer float, with no Cast back to float16 before its float16 reader: the model it writes is
refused by the checker and by onnxruntime.

``ConvertToFp16`` (polygraphy/backend/onnx/loader.py) calls onnxconverter-common's
``convert_float_to_float16(model, keep_io_types=True, disable_shape_infer=True)``. The converter keeps the inputs of
an op in ``DEFAULT_OP_BLOCK_LIST`` (Max, Min, Range, RoiAlign, TopK, CumSum, Resize, ...) float, and adds the Casts
around it in ``insert_cast32_before_node`` / ``insert_cast16_after_node``, which find a value's type in
``graph.value_info`` / ``graph.input`` / ``graph.output`` only. Its own file-path entry,
``convert_float_to_float16_model_path``, sets ``disable_shape_infer=True`` only after it ran ``infer_shapes_path``
itself; Polygraphy disables the inference without giving the converter any value_info (its CLI runs inference before
only with ``--shape-inference``), so no Cast follows the blocked op. Here ``y = Add(x, Max(c, c))``, ``c`` a float
initializer, ``x: float[3]``: ``Max`` stays float and ``Add`` reads it beside the float16 ``x``.
The same converter with its inference on (``disable_shape_infer=False``) writes a valid model (the control).
Exits 1 while Polygraphy's output is refused; 0 once it is valid and runs.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh
from onnxconverter_common import float16
from polygraphy.backend.onnx import ConvertToFp16
from polygraphy.logger import G_LOGGER

G_LOGGER.module_severity = G_LOGGER.CRITICAL


def model():
    c = nh.from_array(np.array([-1.5, 2.0, -3.0], np.float32), "c")
    nodes = [h.make_node("Max", ["c", "c"], ["m"], name="max"), h.make_node("Add", ["x", "m"], ["y"], name="add")]
    graph = h.make_graph(
        nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [3])], [h.make_tensor_value_info("y", T.FLOAT, [3])], [c]
    )
    return h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8)


def refusal(m):
    """The checker's or onnxruntime's refusal of ``m``, or None when it is valid and runs."""
    try:
        onnx.checker.check_model(m, full_check=True)
        so = ort.SessionOptions()
        so.log_severity_level = 3
        sess = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
        sess.run(None, {"x": np.array([1.0, -2.0, 3.0], np.float32)})
    except Exception as exc:  # noqa: BLE001 - the refusal is the finding
        return f"{type(exc).__name__}: {str(exc).strip().splitlines()[-1]}"
    return None


onnx.checker.check_model(model(), full_check=True)
control = refusal(float16.convert_float_to_float16(model(), keep_io_types=True, disable_shape_infer=False))
print("onnxconverter-common with its inference:", control or "valid, runs")
got = refusal(ConvertToFp16(model())())
print("Polygraphy ConvertToFp16:", got or "valid, runs")
sys.exit(1 if got is not None and control is None else 0)
