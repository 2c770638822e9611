"""hunt/empty-optional-input-onnx-infer-shapes-data-prop-less-precis-34ece2dd: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('Shape', ['x'], ['full'], name='shape'),
        helper.make_node('Slice', ['full', 'starts', 'ends', 'axes', ''], ['s'], name='slice'),
        helper.make_node('Concat', ['minus_one', 's'], ['target'], name='concat', axis=0),
        helper.make_node('Reshape', ['x', 'target'], ['y'], name='reshape'),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name='starts'),
        numpy_helper.from_array(np.array([3], dtype=np.int64).reshape((1,)), name='ends'),
        numpy_helper.from_array(np.array([0], dtype=np.int64).reshape((1,)), name='axes'),
        numpy_helper.from_array(np.array([-1], dtype=np.int64).reshape((1,)), name='minus_one'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 3, 4, 'M']),
    ]
    outputs = [
        helper.make_tensor_value_info('y', 1, [None, None, None]),
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
        helper.make_node('Reshape', ['x', 'target'], ['y'], name='reshape'),
    ]
    initializers = [
        numpy_helper.from_array(np.array([1], dtype=np.int64).reshape((1,)), name='starts'),
        numpy_helper.from_array(np.array([3], dtype=np.int64).reshape((1,)), name='ends'),
        numpy_helper.from_array(np.array([0], dtype=np.int64).reshape((1,)), name='axes'),
        numpy_helper.from_array(np.array([-1], dtype=np.int64).reshape((1,)), name='minus_one'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 3, 4, 'M']),
    ]
    outputs = [
        helper.make_tensor_value_info('y', 1, [None, None, None]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], ir_version=8)


register(Case(
    id='hunt/empty-optional-input-onnx-infer-shapes-data-prop-less-precis-34ece2dd',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnx:infer-shapes-data-prop parity less-precise')},
    doc='Reduced by passcheck hunt from finding hunt/empty-optional-input-onnx-infer-shapes-data-prop-less-precis-34ece2dd:uncommon|onnx:infer-shapes-data-prop|parity|less-precise: graph output \'y\' after onnx:infer-shapes-data-prop: ["unk__0", "unk__1", "unk__2"] in \'uncommon\' vs ["unk__0", 3, 4] in \'common\' (which holds at run time)',
    opset=18,
    passes=('onnx:infer-shapes-data-prop',),
    tags=frozenset({"reduced"}),
))
