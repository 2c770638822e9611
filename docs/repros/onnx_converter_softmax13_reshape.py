"""onnx's version converter, Softmax-13 → Softmax-12 (`onnx/version_converter/adapters/softmax_13_12.h`): a
Softmax whose output a Reshape reads. Exits 1 while the conversion aborts (onnx, onnxruntime, numpy)."""

import sys

import numpy as np
import onnx
import onnx.version_converter
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def model(reshape_is_output: bool) -> onnx.ModelProto:
    """``y = Reshape(Softmax(x), [4, 6])`` (then ``Neg`` unless the Reshape writes ``y``), ``x: [2, 12]``, opset 13."""
    last = "y" if reshape_is_output else "r"
    nodes = [h.make_node("Softmax", ["x"], ["s"], axis=-1), h.make_node("Reshape", ["s", "shape"], [last])]
    if not reshape_is_output:
        nodes.append(h.make_node("Neg", ["r"], ["y"]))
    graph = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, [2, 12])],
        [h.make_tensor_value_info("y", T.FLOAT, [4, 6])],
        [nh.from_array(np.array([4, 6], np.int64), "shape")],
    )
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", 13)])
    m.ir_version = 7
    return m


bad = 0
for reshape_is_output in (True, False):
    m = model(reshape_is_output)
    onnx.checker.check_model(m, full_check=True)
    ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])  # a model onnxruntime runs
    try:
        out = onnx.version_converter.convert_version(m, 12)
        onnx.checker.check_model(out, full_check=True)
        print(f"reshape writes the output={reshape_is_output}: converted, nodes {[n.op_type for n in out.graph.node]}")
    except Exception as exc:  # noqa: BLE001 - the converter's C++ assertion surfaces as RuntimeError
        print(f"reshape writes the output={reshape_is_output}: {type(exc).__name__}: {str(exc)[:160]}")
        bad += 1
sys.exit(1 if bad else 0)
