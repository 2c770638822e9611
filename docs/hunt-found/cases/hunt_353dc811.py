"""hunt/add-as-sum-ort-extended-missed-optimization-353dc811: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('MatMul', ['x', 'w'], ['m'], name='mm'),
        helper.make_node('Sum', ['m', 'b'], ['a'], name='add'),
    ]
    initializers = [
        numpy_helper.from_array(np.array([0.0, 0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.4000000059604645, 0.5, 0.6000000238418579, 0.699999988079071, 0.800000011920929, 0.8999999761581421, 1.0, 1.100000023841858], dtype=np.float32).reshape((4, 3)), name='w'),
        numpy_helper.from_array(np.array([0.10000000149011612, -0.20000000298023224, 0.30000001192092896], dtype=np.float32).reshape((3,)), name='b'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 4]),
    ]
    outputs = [
        helper.make_tensor_value_info('a', 1, ['N', 3]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)], ir_version=7)


def build_common():
    nodes = [
        helper.make_node('MatMul', ['x', 'w'], ['m'], name='mm'),
        helper.make_node('Add', ['m', 'b'], ['a'], name='add'),
    ]
    initializers = [
        numpy_helper.from_array(np.array([0.0, 0.10000000149011612, 0.20000000298023224, 0.30000001192092896, 0.4000000059604645, 0.5, 0.6000000238418579, 0.699999988079071, 0.800000011920929, 0.8999999761581421, 1.0, 1.100000023841858], dtype=np.float32).reshape((4, 3)), name='w'),
        numpy_helper.from_array(np.array([0.10000000149011612, -0.20000000298023224, 0.30000001192092896], dtype=np.float32).reshape((3,)), name='b'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 4]),
    ]
    outputs = [
        helper.make_tensor_value_info('a', 1, ['N', 3]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)], ir_version=7)


register(Case(
    id='hunt/add-as-sum-ort-extended-missed-optimization-353dc811',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/add-as-sum-ort-extended-missed-optimization-353dc811:uncommon|ort:extended|parity|missed-optimization: ort:extended removed MatMul 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 2; new op types: common ['Gemm'], uncommon none; kept in 'uncommon': mm",
    opset=13,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
