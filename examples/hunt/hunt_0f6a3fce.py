"""hunt/axes-as-attribute-ort-symbolic-shape-infer-less-precise-0f6a3fce: a minimal pair showing one finding
(common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_common():
    nodes = [
        helper.make_node("ReduceMin", ["data", "axes"], ["reduced"], name="n0_ReduceMin"),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name="axes"),
    ]
    inputs = [
        helper.make_tensor_value_info("data", 1, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info("reduced", 1, [2, 1, 4]),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)], ir_version=9)


def build_uncommon():
    nodes = [
        helper.make_node("ReduceMin", ["data"], ["reduced"], name="n0_ReduceMin", axes=[1]),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name="axes"),
    ]
    inputs = [
        helper.make_tensor_value_info("data", 1, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info("reduced", 1, [2, 1, 4]),
    ]
    value_info = []
    graph = helper.make_graph(nodes, "g", inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=9)


register(
    Case(
        id="hunt/axes-as-attribute-ort-symbolic-shape-infer-less-precise-0f6a3fce",
        forms={
            "common": Form(build_common),
            "uncommon": Form(build_uncommon, "the form ort:symbolic-shape-infer misses"),
        },
        doc="Reduced by passcheck hunt from finding "
        "hunt/axes-as-attribute-ort-symbolic-shape-infer-less-precise-0f6a3fce:common|ort:symbolic-shape-infer|"
        "parity|less-precise: graph output 'reduced' after ort:symbolic-shape-infer: "
        "rank unknown in 'common' vs [2, 1, 4] in 'uncommon' (which holds at run time)",
        opset=20,
        passes=("ort:symbolic-shape-infer",),
        tags=frozenset({"reduced"}),
    )
)
