"""hunt/vary-attr-start-onnxoptimizer-optimize-wrong-result-2fcf50a0: a minimal model showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('Shape', ['x'], ['full'], name='shape', start=1),
        helper.make_node('Slice', ['full', 'starts', 'ends', 'axes'], ['s'], name='slice'),
    ]
    initializers = [
        numpy_helper.from_array(np.array([-10], dtype=np.int64).reshape((1,)), name='starts'),
        numpy_helper.from_array(np.array([10], dtype=np.int64).reshape((1,)), name='ends'),
        numpy_helper.from_array(np.array([0], dtype=np.int64).reshape((1,)), name='axes'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, [2, 3, 4, 5]),
    ]
    outputs = [
        helper.make_tensor_value_info('s', 7, [3]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 18)], ir_version=8)


build_common = build_uncommon

register(Case(
    id='hunt/vary-attr-start-onnxoptimizer-optimize-wrong-result-2fcf50a0',
    forms={"common": Form(build_uncommon), 'uncommon': Form(build_uncommon, 'the same model (a one-form finding of onnxoptimizer:optimize)')},
    doc="Reduced by passcheck hunt (the neighbour vary:attr-start@shape=1 of a 2-node base) from finding hunt/vary-attr-start-onnxoptimizer-optimize-wrong-result-2fcf50a0:common|onnxoptimizer:optimize|numeric|wrong-result: output 's' (binding 0): 3 of 3 elements differ (exact dtype int64)",
    opset=18,
    passes=('onnxoptimizer:optimize',),
    tags=frozenset({"reduced"}),
))
