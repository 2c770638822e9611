"""hunt/keepdims-unsqueeze-onnxscript-optimize-input-mutated-b560a8c3: a minimal pair showing one finding
(common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_common():
    nodes = [
        helper.make_node("ReduceProd", ["data"], ["reduced"], name="n0_ReduceProd", axes=[1], keepdims=1),
    ]
    initializers = []
    inputs = [
        helper.make_tensor_value_info("data", 1, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info("reduced", 1, [2, 1, 4]),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)


def build_uncommon():
    nodes = [
        helper.make_node("ReduceProd", ["data"], ["reduced_reduced"], name="n0_ReduceProd", axes=[1], keepdims=0),
        helper.make_node(
            "Constant",
            [],
            ["n0_ReduceProd_axes"],
            name="n0_ReduceProd_axes_node",
            value=numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name=""),
        ),
        helper.make_node(
            "Unsqueeze", ["reduced_reduced", "n0_ReduceProd_axes"], ["reduced"], name="n0_ReduceProd_unsqueeze"
        ),
    ]
    initializers = []
    inputs = [
        helper.make_tensor_value_info("data", 1, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info("reduced", 1, [2, 1, 4]),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)


register(
    Case(
        id="hunt/keepdims-unsqueeze-onnxscript-optimize-input-mutated-b560a8c3",
        forms={"common": Form(build_common), "uncommon": Form(build_uncommon, "the form onnxscript:optimize misses")},
        doc="Reduced by passcheck hunt from finding "
        "hunt/keepdims-unsqueeze-onnxscript-optimize-input-mutated-b560a8c3:uncommon|onnxscript:optimize|"
        "pass-contract|input-mutated: onnxscript:optimize changed the model it was given (graph.node at #1 "
        "'n0_ReduceProd_axes_node'); a caller that reuses its model after the pass sees it altered",
        opset=13,
        passes=("onnxscript:optimize",),
        tags=frozenset({"reduced"}),
    )
)
