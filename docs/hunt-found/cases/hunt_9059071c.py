"""hunt/keepdims-unsqueeze-ort-symbolic-shape-infer-rejected-9059071c: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('ReduceProd', ['data', 'axes'], ['reduced_reduced'], name='n0_ReduceProd', keepdims=0),
        helper.make_node('Unsqueeze', ['reduced_reduced', 'axes'], ['reduced'], name='n0_ReduceProd_unsqueeze'),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name='axes'),
    ]
    inputs = [
        helper.make_tensor_value_info('data', 7, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info('reduced', 7, [2, 1, 4]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], ir_version=8)


def build_common():
    nodes = [
        helper.make_node('ReduceProd', ['data', 'axes'], ['reduced'], name='n0_ReduceProd'),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name='axes'),
    ]
    inputs = [
        helper.make_tensor_value_info('data', 7, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info('reduced', 7, [2, 1, 4]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], ir_version=8)


register(Case(
    id='hunt/keepdims-unsqueeze-ort-symbolic-shape-infer-rejected-9059071c',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:symbolic-shape-infer acceptance rejected')},
    doc="Reduced by passcheck hunt from finding hunt/keepdims-unsqueeze-ort-symbolic-shape-infer-rejected-9059071c:uncommon|ort:symbolic-shape-infer|acceptance|rejected: ort:symbolic-shape-infer crashed on this form only (accepted: common): TypeError: object of type 'NoneType' has no len()",
    opset=18,
    passes=('ort:symbolic-shape-infer',),
    tags=frozenset({"reduced"}),
))
