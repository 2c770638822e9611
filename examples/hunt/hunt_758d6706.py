"""hunt/attribute-zero-no-field+opset-import-ai-onnx-onnxscript-rewr-758d6706: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('Flatten', ['input'], ['output'], name='n0_Flatten', axis=0),
    ]
    initializers = [
    ]
    inputs = [
        helper.make_tensor_value_info('input', 1, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info('output', 1, [1, 24]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('ai.onnx', 25)], ir_version=12)


def build_common():
    nodes = [
        helper.make_node('Flatten', ['input'], ['output'], name='n0_Flatten', axis=0),
    ]
    initializers = [
    ]
    inputs = [
        helper.make_tensor_value_info('input', 1, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info('output', 1, [1, 24]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 25)], ir_version=12)


register(Case(
    id='hunt/attribute-zero-no-field+opset-import-ai-onnx-onnxscript-rewr-758d6706',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:rewrite validity invalid-model')},
    doc='Reduced by passcheck hunt from finding hunt/attribute-zero-no-field+opset-import-ai-onnx-onnxscript-rewr-758d6706:uncommon|onnxscript:rewrite|validity|invalid-model: the checker rejects the output of onnxscript:rewrite: ValidationError: Node(node_Reshape_0) with schema(::Reshape:1) has input size 2 not in range [min=1, max=1]. ==> Context: Bad node spec for node. Name: node_Reshape_0 OpType: Reshape',
    opset=25,
    passes=('onnxscript:rewrite',),
    tags=frozenset({"reduced"}),
))
