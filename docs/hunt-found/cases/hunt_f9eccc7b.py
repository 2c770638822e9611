"""hunt/constant-typed-attr-ort-symbolic-shape-infer-rejected-f9eccc7b: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('Constant', [], ['output'], name='n0_Constant', value_floats=[1.0, 2.0, 3.0]),
    ]
    initializers = [
    ]
    inputs = [
    ]
    outputs = [
        helper.make_tensor_value_info('output', 1, [3]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 21)], ir_version=10)


def build_common():
    nodes = [
        helper.make_node('Constant', [], ['output'], name='n0_Constant', value=numpy_helper.from_array(np.array([1.0, 2.0, 3.0], dtype=np.float32).reshape((3,)), name='')),
    ]
    initializers = [
    ]
    inputs = [
    ]
    outputs = [
        helper.make_tensor_value_info('output', 1, [3]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 21)], ir_version=10)


register(Case(
    id='hunt/constant-typed-attr-ort-symbolic-shape-infer-rejected-f9eccc7b',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:symbolic-shape-infer acceptance rejected')},
    doc="Reduced by passcheck hunt from finding hunt/constant-typed-attr-ort-symbolic-shape-infer-rejected-f9eccc7b:uncommon|ort:symbolic-shape-infer|acceptance|rejected: ort:symbolic-shape-infer crashed on this form only (accepted: common): AttributeError: 'NoneType' object has no attribute 'HasField'",
    opset=21,
    passes=('ort:symbolic-shape-infer',),
    tags=frozenset({"reduced"}),
))
