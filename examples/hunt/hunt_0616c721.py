"""hunt/vary-attr-new_axis-onnxscript-optimize-invalid-model-0616c721: a minimal model showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('SequenceConstruct', ['input_sequence_e0', 'input_sequence_e1'], ['input_sequence'], name='n0_SequenceConstruct'),
        helper.make_node('ConcatFromSequence', ['input_sequence'], ['concat_result'], name='n1_ConcatFromSequence', axis=1, new_axis=1),
    ]
    initializers = [
    ]
    inputs = [
        helper.make_tensor_value_info('input_sequence_e0', 9, [2, 3, 4]),
        helper.make_tensor_value_info('input_sequence_e1', 9, [2, 3, 4]),
    ]
    outputs = [
        helper.make_tensor_value_info('concat_result', 9, [2, 'unk__0', 3, 4]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 11)], ir_version=6)


build_common = build_uncommon

register(Case(
    id='hunt/vary-attr-new_axis-onnxscript-optimize-invalid-model-0616c721',
    forms={"common": Form(build_uncommon), 'uncommon': Form(build_uncommon, 'the same model (a one-form finding of onnxscript:optimize)')},
    doc='Reduced by passcheck hunt (the neighbour vary:attr-new_axis@n1_ConcatFromSequence=1 of a 2-node base) from finding hunt/vary-attr-new_axis-onnxscript-optimize-invalid-model-0616c721:common|onnxscript:optimize|validity|invalid-model: the checker rejects the output of onnxscript:optimize: ValidationError: Node(node_Unsqueeze_1) with schema(::Unsqueeze:11) has input size 2 not in range [min=1, max=1]. ==> Context: Bad node spec for node. Name: node_Unsqueeze_1 OpType: Unsqueeze',
    opset=11,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
