"""hunt/empty-optional-outputs-ort-symbolic-shape-infer-rejected-5bb0bda1: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('SoftmaxCrossEntropyLoss', ['scores', 'labels'], ['output', ''], name='n0_SoftmaxCrossEntropyLoss'),
    ]
    initializers = [
        numpy_helper.from_array(np.array([0, 1, 2, 0, 2, 2, 1, 0], dtype=np.int64).reshape((2, 4)), name='labels'),
    ]
    inputs = [
        helper.make_tensor_value_info('scores', 1, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info('output', 1, []),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 12)], ir_version=7)


def build_common():
    nodes = [
        helper.make_node('SoftmaxCrossEntropyLoss', ['scores', 'labels'], ['output'], name='n0_SoftmaxCrossEntropyLoss'),
    ]
    initializers = [
        numpy_helper.from_array(np.array([0, 1, 2, 0, 2, 2, 1, 0], dtype=np.int64).reshape((2, 4)), name='labels'),
    ]
    inputs = [
        helper.make_tensor_value_info('scores', 1, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info('output', 1, []),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 12)], ir_version=7)


register(Case(
    id='hunt/empty-optional-outputs-ort-symbolic-shape-infer-rejected-5bb0bda1',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:symbolic-shape-infer acceptance rejected')},
    doc="Reduced by passcheck hunt from finding hunt/empty-optional-outputs-ort-symbolic-shape-infer-rejected-5bb0bda1:uncommon|ort:symbolic-shape-infer|acceptance|rejected: ort:symbolic-shape-infer crashed on this form only (accepted: common): KeyError: ''",
    opset=12,
    passes=('ort:symbolic-shape-infer',),
    tags=frozenset({"reduced"}),
))
