"""hunt/empty-optional-input-ort-extended-rejected-18e871fe: a minimal pair showing one finding
(common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_common():
    nodes = [
        helper.make_node("LayerNormalization", ["X", "Scale"], ["Y"], name="n0_LayerNormalization"),
    ]
    initializers = []
    inputs = [
        helper.make_tensor_value_info("X", 1, [2, 3, 4]),
        helper.make_tensor_value_info("Scale", 1, [4]),
    ]
    outputs = [
        helper.make_tensor_value_info("Y", 1, [2, 3, 4]),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def build_uncommon():
    nodes = [
        helper.make_node("LayerNormalization", ["X", "Scale", ""], ["Y"], name="n0_LayerNormalization"),
    ]
    initializers = []
    inputs = [
        helper.make_tensor_value_info("X", 1, [2, 3, 4]),
        helper.make_tensor_value_info("Scale", 1, [4]),
    ]
    outputs = [
        helper.make_tensor_value_info("Y", 1, [2, 3, 4]),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


register(
    Case(
        id="hunt/empty-optional-input-ort-extended-rejected-18e871fe",
        forms={"common": Form(build_common), "uncommon": Form(build_uncommon, "the form ort:extended misses")},
        doc="Reduced by passcheck hunt from finding "
        "hunt/empty-optional-input-ort-extended-rejected-18e871fe:uncommon|ort:extended|acceptance|rejected: "
        "ort:extended crashed on this form only (accepted: common): the pass killed its process: SIGSEGV",
        opset=17,
        passes=("ort:extended",),
        tags=frozenset({"reduced"}),
    )
)
