"""hunt/shape-start-end-onnxscript-optimize-missed-optimization-7e6030da: a minimal pair showing one finding
(common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_common():
    nodes = [
        helper.make_node("Shape", ["x"], ["d_shape"], name="shape_0"),
        helper.make_node("Slice", ["d_shape", "d_starts", "d_ends", "d_axes"], ["d"], name="slice_1"),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name="d_starts"),
        numpy_helper.from_array(np.array([2], dtype=np.int64).reshape((1,)), name="d_ends"),
        numpy_helper.from_array(np.array([0], dtype=np.int64).reshape((1,)), name="d_axes"),
    ]
    inputs = [
        helper.make_tensor_value_info("x", 1, ["N", 4, 6]),
    ]
    outputs = [
        helper.make_tensor_value_info("d", 7, [1]),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "passcheck", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def build_uncommon():
    nodes = [
        helper.make_node("Shape", ["x"], ["d"], name="shape_0", end=2, start=1),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name="d_starts"),
        numpy_helper.from_array(np.array([2], dtype=np.int64).reshape((1,)), name="d_ends"),
        numpy_helper.from_array(np.array([0], dtype=np.int64).reshape((1,)), name="d_axes"),
    ]
    inputs = [
        helper.make_tensor_value_info("x", 1, ["N", 4, 6]),
    ]
    outputs = [
        helper.make_tensor_value_info("d", 7, [1]),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "passcheck", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


register(
    Case(
        id="hunt/shape-start-end-onnxscript-optimize-missed-optimization-7e6030da",
        forms={"common": Form(build_common), "uncommon": Form(build_uncommon, "the form onnxscript:optimize misses")},
        doc="Reduced by passcheck hunt from finding "
        "hunt/shape-start-end-onnxscript-optimize-missed-optimization-7e6030da:common|onnxscript:optimize|"
        "parity|missed-optimization: onnxscript:optimize removed Shape 1→0 in 'uncommon' but 1→1 in 'common'; "
        "nodes after: uncommon 0, common 2; kept in 'common': shape_0",
        opset=18,
        passes=("onnxscript:optimize",),
        tags=frozenset({"reduced"}),
    )
)
