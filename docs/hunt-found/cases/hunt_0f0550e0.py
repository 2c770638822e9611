"""hunt/axes-as-attribute-ort-symbolic-shape-infer-less-precise-0f0550e0: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('ReduceProd', ['data'], ['reduced'], name='n0_ReduceProd', axes=[1]),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name='axes'),
    ]
    inputs = [
        helper.make_tensor_value_info('data', 6, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info('reduced', 6, [2, 1, 4]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)], ir_version=8)


def build_common():
    nodes = [
        helper.make_node('ReduceProd', ['data', 'axes'], ['reduced'], name='n0_ReduceProd'),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name='axes'),
    ]
    inputs = [
        helper.make_tensor_value_info('data', 6, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info('reduced', 6, [2, 1, 4]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], ir_version=8)


register(Case(
    id='hunt/axes-as-attribute-ort-symbolic-shape-infer-less-precise-0f0550e0',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:symbolic-shape-infer parity less-precise')},
    doc="Reduced by passcheck hunt from finding hunt/axes-as-attribute-ort-symbolic-shape-infer-less-precise-0f0550e0:common|ort:symbolic-shape-infer|parity|less-precise: graph output 'reduced' after ort:symbolic-shape-infer: rank unknown in 'common' vs [2, 1, 4] in 'uncommon' (which holds at run time)",
    opset=17,
    passes=('ort:symbolic-shape-infer',),
    tags=frozenset({"reduced"}),
))
