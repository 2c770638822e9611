"""hunt/negative-axes-onnxscript-optimize-missed-optimization-fd268d8b: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('Shape', ['x'], ['d_shape'], name='shape_0'),
        helper.make_node('Gather', ['d_shape', 'd_idx'], ['d'], name='gather_1', axis=-1),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name='d_idx'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 4, 6]),
    ]
    outputs = [
        helper.make_tensor_value_info('d', 7, [1]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], ir_version=8)


def build_common():
    nodes = [
        helper.make_node('Shape', ['x'], ['d_shape'], name='shape_0'),
        helper.make_node('Gather', ['d_shape', 'd_idx'], ['d'], name='gather_1', axis=0),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name='d_idx'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 4, 6]),
    ]
    outputs = [
        helper.make_tensor_value_info('d', 7, [1]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], ir_version=8)


register(Case(
    id='hunt/negative-axes-onnxscript-optimize-missed-optimization-fd268d8b',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:optimize parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/negative-axes-onnxscript-optimize-missed-optimization-fd268d8b:uncommon|onnxscript:optimize|parity|missed-optimization: onnxscript:optimize removed Gather 1→0 in 'common' but 1→1 in 'uncommon'; Shape 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 0, uncommon 2; kept in 'uncommon': shape_0, gather_1 after Shape shape_0",
    opset=18,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
