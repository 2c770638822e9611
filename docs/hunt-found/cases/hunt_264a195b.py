"""hunt/empty-optional-outputs-ort-symbolic-shape-infer-rejected-264a195b: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('LayerNormalization', ['sum', 'scale', 'bias'], ['y', '', ''], name='layernorm', axis=-1, epsilon=9.999999747378752e-06),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1.308372139930725, 1.1290277242660522, 0.6734203696250916, 1.2657617330551147, 0.7671180963516235, 1.0134656429290771, 1.4778058528900146, 1.3194836378097534], dtype=np.float32).reshape((8,)), name='scale'),
        numpy_helper.from_array(np.array([0.8742854595184326, 1.0709034204483032, -1.0940889120101929, 0.2929585874080658, -1.9587990045547485, 0.2710639238357544, 0.5170554518699646, 0.44285523891448975], dtype=np.float32).reshape((8,)), name='bias'),
    ]
    inputs = [
        helper.make_tensor_value_info('sum', 1, ['N', 'S', 8]),
    ]
    outputs = [
        helper.make_tensor_value_info('y', 1, ['N', 'S', 8]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)], ir_version=8)


def build_common():
    nodes = [
        helper.make_node('LayerNormalization', ['sum', 'scale', 'bias'], ['y'], name='layernorm', axis=-1, epsilon=9.999999747378752e-06),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1.308372139930725, 1.1290277242660522, 0.6734203696250916, 1.2657617330551147, 0.7671180963516235, 1.0134656429290771, 1.4778058528900146, 1.3194836378097534], dtype=np.float32).reshape((8,)), name='scale'),
        numpy_helper.from_array(np.array([0.8742854595184326, 1.0709034204483032, -1.0940889120101929, 0.2929585874080658, -1.9587990045547485, 0.2710639238357544, 0.5170554518699646, 0.44285523891448975], dtype=np.float32).reshape((8,)), name='bias'),
    ]
    inputs = [
        helper.make_tensor_value_info('sum', 1, ['N', 'S', 8]),
    ]
    outputs = [
        helper.make_tensor_value_info('y', 1, ['N', 'S', 8]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)], ir_version=8)


register(Case(
    id='hunt/empty-optional-outputs-ort-symbolic-shape-infer-rejected-264a195b',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:symbolic-shape-infer acceptance rejected')},
    doc="Reduced by passcheck hunt from finding hunt/empty-optional-outputs-ort-symbolic-shape-infer-rejected-264a195b:uncommon|ort:symbolic-shape-infer|acceptance|rejected: ort:symbolic-shape-infer crashed on this form only (accepted: common): KeyError: ''",
    opset=17,
    passes=('ort:symbolic-shape-infer',),
    tags=frozenset({"reduced"}),
))
