"""hunt/float64-compute-input-rejected-9c2e8cb6: a minimal pair showing one finding
(common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_common():
    nodes = [
        helper.make_node("Tan", ["input"], ["output"], name="n0_Tan"),
    ]
    initializers = []
    inputs = [
        helper.make_tensor_value_info("input", 1, []),
    ]
    outputs = [
        helper.make_tensor_value_info("output", 1, []),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)], ir_version=10)


def build_uncommon():
    nodes = [
        helper.make_node("Cast", ["input"], ["input_f64"], name="input_f64_cast", to=11),
        helper.make_node("Tan", ["input_f64"], ["output_f64"], name="n0_Tan"),
        helper.make_node("Cast", ["output_f64"], ["output"], name="output_cast", to=1),
    ]
    initializers = []
    inputs = [
        helper.make_tensor_value_info("input", 1, []),
    ]
    outputs = [
        helper.make_tensor_value_info("output", 1, []),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 22)], ir_version=10)


register(
    Case(
        id="hunt/float64-compute-input-rejected-9c2e8cb6",
        forms={"common": Form(build_common), "uncommon": Form(build_uncommon, "the form input misses")},
        doc="Reduced by passcheck hunt from finding "
        "hunt/float64-compute-input-rejected-9c2e8cb6:uncommon|input|runtime|rejected: "
        "onnxruntime cannot run this form (form 'common' runs on the same feeds): NotImplemented: "
        "[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : Could not find an implementation for Tan(22) node with "
        "name 'n0_Tan'",
        opset=22,
        passes=("input",),
        tags=frozenset({"reduced"}),
    )
)
