"""hunt/reshape-split-ort-basic-invalid-model-ccc6e0bc: a minimal pair showing one finding
(common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_common():
    nodes = [
        helper.make_node("Reshape", ["data", "shape"], ["reshaped"], name="n0_Reshape"),
    ]
    initializers = [
        numpy_helper.from_array(np.array([4, 6], dtype=np.int64).reshape((2,)), name="shape"),
    ]
    inputs = [
        helper.make_tensor_value_info("data", 1, [2, 3, 4]),
        helper.make_tensor_value_info("shape", 7, [2]),
    ]
    outputs = [
        helper.make_tensor_value_info("reshaped", 1, [4, 6]),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 7)], ir_version=3)


def build_uncommon():
    nodes = [
        helper.make_node("Reshape", ["data", "shape"], ["n0_Reshape_split"], name="n0_Reshape_split_node"),
        helper.make_node("Reshape", ["n0_Reshape_split", "shape"], ["reshaped"], name="n0_Reshape"),
    ]
    initializers = [
        numpy_helper.from_array(np.array([4, 6], dtype=np.int64).reshape((2,)), name="shape"),
    ]
    inputs = [
        helper.make_tensor_value_info("data", 1, [2, 3, 4]),
        helper.make_tensor_value_info("shape", 7, [2]),
    ]
    outputs = [
        helper.make_tensor_value_info("reshaped", 1, [4, 6]),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 7)], ir_version=3)


register(
    Case(
        id="hunt/reshape-split-ort-basic-invalid-model-ccc6e0bc",
        forms={"common": Form(build_common), "uncommon": Form(build_uncommon, "the form ort:basic misses")},
        doc="Reduced by passcheck hunt from finding "
        "hunt/reshape-split-ort-basic-invalid-model-ccc6e0bc:uncommon|ort:basic|validity|invalid-model: "
        "the checker rejects the output of ort:basic: ValidationError: n0_Reshape_split_node_new_shape in "
        "initializer but not in graph input",
        opset=7,
        passes=("ort:basic",),
        tags=frozenset({"reduced"}),
    )
)
