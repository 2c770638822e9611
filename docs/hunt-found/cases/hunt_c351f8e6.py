"""hunt/negative-axes-ort-symbolic-shape-infer-less-precise-c351f8e6: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('Shape', ['x'], ['d_shape'], name='shape_0'),
        helper.make_node('Gather', ['d_shape', 'd_idx'], ['d'], name='gather_1', axis=-1),
        helper.make_node('TopK', ['x', 'd'], ['y', 'i'], name='topk_2', axis=-1),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name='d_idx'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 4, 6]),
    ]
    outputs = [
        helper.make_tensor_value_info('y', 1, ['N', 4, 4]),
        helper.make_tensor_value_info('i', 7, ['N', 4, 4]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], ir_version=8)


def build_common():
    nodes = [
        helper.make_node('Shape', ['x'], ['d_shape'], name='shape_0'),
        helper.make_node('Gather', ['d_shape', 'd_idx'], ['d'], name='gather_1', axis=0),
        helper.make_node('TopK', ['x', 'd'], ['y', 'i'], name='topk_2', axis=-1),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name='d_idx'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 4, 6]),
    ]
    outputs = [
        helper.make_tensor_value_info('y', 1, ['N', 4, 4]),
        helper.make_tensor_value_info('i', 7, ['N', 4, 4]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], ir_version=8)


register(Case(
    id='hunt/negative-axes-ort-symbolic-shape-infer-less-precise-c351f8e6',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:symbolic-shape-infer parity less-precise')},
    doc='Reduced by passcheck hunt from finding hunt/negative-axes-ort-symbolic-shape-infer-less-precise-c351f8e6:uncommon|ort:symbolic-shape-infer|parity|less-precise: graph output \'y\' after ort:symbolic-shape-infer: ["N", 4, "TopK_2_o0__d0"] in \'uncommon\' vs ["N", 4, 4] in \'common\' (which holds at run time)',
    opset=18,
    passes=('ort:symbolic-shape-infer',),
    tags=frozenset({"reduced"}),
))
