"""hunt/node-as-local-function-ort-symbolic-shape-infer-less-precise-8ab28d4d: a minimal pair showing one finding (common: helper, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSEnBhc3NjaGVjay1nZW5lcmF0ZTplCjQKAVgSAVkaCm4wX05vblplcm8iC05vblplcm9fZm4wOhNvcmcucGFzc2NoZWNrLmxv"
        "Y2FsEgFnWg8KAVgSCgoICAESBAoCCAViGQoBWRIUChIIBxIOCgIIAQoIEgZ1bmtfXzBCBAoAEA1CFwoTb3JnLnBhc3NjaGVjay5s"
        "b2NhbBABygFJCgtOb25aZXJvX2ZuMCICeDAqAnkwOhcKAngwEgJ5MBoEYm9keSIHTm9uWmVyb0oECgAQDVITb3JnLnBhc3NjaGVj"
        "ay5sb2NhbA=="
    ))


def build_common():
    nodes = [
        helper.make_node('NonZero', ['X'], ['Y'], name='n0_NonZero'),
    ]
    initializers = [
    ]
    inputs = [
        helper.make_tensor_value_info('X', 1, [5]),
    ]
    outputs = [
        helper.make_tensor_value_info('Y', 7, [1, 'unk__0']),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 13)], ir_version=7)


register(Case(
    id='hunt/node-as-local-function-ort-symbolic-shape-infer-less-precise-8ab28d4d',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:symbolic-shape-infer parity less-precise')},
    doc='Reduced by passcheck hunt from finding hunt/node-as-local-function-ort-symbolic-shape-infer-less-precise-8ab28d4d:uncommon|ort:symbolic-shape-infer|parity|less-precise: graph output \'Y\' after ort:symbolic-shape-infer: ["NonZero_fn0_0_o0__d0", "NonZero_fn0_0_o0__d1"] in \'uncommon\' vs [1, "NonZero_0_o0__d1"] in \'common\' (which holds at run time)',
    opset=13,
    passes=('ort:symbolic-shape-infer',),
    tags=frozenset({"reduced"}),
))
