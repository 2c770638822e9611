"""hunt/all-empty-optional-inputs-input-rejected-7dba48a0: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('MaxUnpool', ['X', 'I', ''], ['output'], name='n0_MaxUnpool', kernel_shape=[2, 2], strides=[2, 2]),
    ]
    initializers = [
        numpy_helper.from_array(np.array([0, 3, 10, 15], dtype=np.int64).reshape((1, 1, 2, 2)), name='I'),
    ]
    inputs = [
        helper.make_tensor_value_info('X', 1, [1, 1, 2, 2]),
    ]
    outputs = [
        helper.make_tensor_value_info('output', 1, [1, 1, 4, 4]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 9)], ir_version=4)


def build_common():
    nodes = [
        helper.make_node('MaxUnpool', ['X', 'I'], ['output'], name='n0_MaxUnpool', kernel_shape=[2, 2], strides=[2, 2]),
    ]
    initializers = [
        numpy_helper.from_array(np.array([0, 3, 10, 15], dtype=np.int64).reshape((1, 1, 2, 2)), name='I'),
    ]
    inputs = [
        helper.make_tensor_value_info('X', 1, [1, 1, 2, 2]),
    ]
    outputs = [
        helper.make_tensor_value_info('output', 1, [1, 1, 4, 4]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 9)], ir_version=4)


register(Case(
    id='hunt/all-empty-optional-inputs-input-rejected-7dba48a0',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing input runtime rejected')},
    doc="Reduced by passcheck hunt from finding hunt/all-empty-optional-inputs-input-rejected-7dba48a0:uncommon|input|runtime|rejected: onnxruntime cannot run this form (form 'common' runs on the same feeds): Fail: [ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running MaxUnpool node. Name:'n0_MaxUnpool' Status Message: input count mismatch",
    opset=9,
    passes=('input',),
    tags=frozenset({"reduced"}),
))
