"""hunt/negative-axes-ort-symbolic-shape-infer-rejected-f452f8dc: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('Shape', ['x'], ['full'], name='shape'),
        helper.make_node('Slice', ['full', 'starts', 'ends', 'axes'], ['s'], name='slice'),
        helper.make_node('Concat', ['minus_one', 's'], ['target'], name='concat', axis=-1),
    ]
    initializers = [
        numpy_helper.from_array(np.array([0], dtype=np.int64).reshape((1,)), name='starts'),
        numpy_helper.from_array(np.array([2], dtype=np.int64).reshape((1,)), name='ends'),
        numpy_helper.from_array(np.array([0], dtype=np.int64).reshape((1,)), name='axes'),
        numpy_helper.from_array(np.array([-1], dtype=np.int64).reshape((1,)), name='minus_one'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 3, 4, 'M']),
    ]
    outputs = [
        helper.make_tensor_value_info('target', 7, [3]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], ir_version=8)


def build_common():
    nodes = [
        helper.make_node('Shape', ['x'], ['full'], name='shape'),
        helper.make_node('Slice', ['full', 'starts', 'ends', 'axes'], ['s'], name='slice'),
        helper.make_node('Concat', ['minus_one', 's'], ['target'], name='concat', axis=0),
    ]
    initializers = [
        numpy_helper.from_array(np.array([0], dtype=np.int64).reshape((1,)), name='starts'),
        numpy_helper.from_array(np.array([2], dtype=np.int64).reshape((1,)), name='ends'),
        numpy_helper.from_array(np.array([0], dtype=np.int64).reshape((1,)), name='axes'),
        numpy_helper.from_array(np.array([-1], dtype=np.int64).reshape((1,)), name='minus_one'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 3, 4, 'M']),
    ]
    outputs = [
        helper.make_tensor_value_info('target', 7, [3]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], ir_version=8)


register(Case(
    id='hunt/negative-axes-ort-symbolic-shape-infer-rejected-f452f8dc',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:symbolic-shape-infer acceptance rejected')},
    doc='Reduced by passcheck hunt from finding hunt/negative-axes-ort-symbolic-shape-infer-rejected-f452f8dc:uncommon|ort:symbolic-shape-infer|acceptance|rejected: ort:symbolic-shape-infer crashed on this form only (accepted: common): AssertionError:',
    opset=18,
    passes=('ort:symbolic-shape-infer',),
    tags=frozenset({"reduced"}),
))
