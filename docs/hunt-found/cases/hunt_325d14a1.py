"""hunt/node-as-local-function-defaults-ort-symbolic-shape-infer-les-325d14a1: a minimal pair showing one finding (common: helper, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAsSEnBhc3NjaGVjay1nZW5lcmF0ZTqLAQpNCgVpbnB1dBIGb3V0cHV0GhJuMF9Db25zdGFudE9mU2hhcGUiE0NvbnN0YW50T2ZT"
        "aGFwZV9mbjA6E29yZy5wYXNzY2hlY2subG9jYWwSAWcqHQgCEAdCBWlucHV0ShACAAAAAAAAAAMAAAAAAAAAYhgKBm91dHB1dBIO"
        "CgwIARIICgIIAgoCCANCBAoAEBdCFwoTb3JnLnBhc3NjaGVjay5sb2NhbBABygFZChNDb25zdGFudE9mU2hhcGVfZm4wIgJ4MCoC"
        "eTA6HwoCeDASAnkwGgRib2R5Ig9Db25zdGFudE9mU2hhcGVKBAoAEBdSE29yZy5wYXNzY2hlY2subG9jYWw="
    ))


def build_common():
    nodes = [
        helper.make_node('ConstantOfShape', ['input'], ['output'], name='n0_ConstantOfShape'),
    ]
    initializers = [
        numpy_helper.from_array(np.array([2, 3], dtype=np.int64).reshape((2,)), name='input'),
    ]
    inputs = [
    ]
    outputs = [
        helper.make_tensor_value_info('output', 1, [2, 3]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'g', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 23)], ir_version=11)


register(Case(
    id='hunt/node-as-local-function-defaults-ort-symbolic-shape-infer-les-325d14a1',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:symbolic-shape-infer parity less-precise')},
    doc='Reduced by passcheck hunt from finding hunt/node-as-local-function-defaults-ort-symbolic-shape-infer-les-325d14a1:uncommon|ort:symbolic-shape-infer|parity|less-precise: graph output \'output\' after ort:symbolic-shape-infer: ["ConstantOfShape_fn0_0_o0__d0", "ConstantOfShape_fn0_0_o0__d1"] in \'uncommon\' vs [2, 3] in \'common\' (which holds at run time)',
    opset=23,
    passes=('ort:symbolic-shape-infer',),
    tags=frozenset({"reduced"}),
))
