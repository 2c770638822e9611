"""hunt/commute-operands-ort-extended-missed-optimization-eebb4e16: a minimal pair showing one finding (common: helper, uncommon: helper)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    nodes = [
        helper.make_node('Conv', ['x', 'w'], ['c'], name='conv', pads=[1, 1, 1, 1]),
        helper.make_node('Add', ['k', 'c'], ['y'], name='add'),
    ]
    initializers = [
        numpy_helper.from_array(np.frombuffer(bytes.fromhex('a928fcbe605f593d572adbbef77732bf24206cbfc58df9be211be73e3d7f833ed00244bf62664b3fd08fb2bebc1696bf3582b13e609a57bfaa4bd2bfe2711ac0ba82c73f5ed9613de3e9a5bf07a0134094c3533e370980bf913e5c3fb05bda3ef715b3bde1de73bfc0061ebea9f02fbf29ce0a406e57e4bfbeb0293f89b5eebed7a8933fc5fec5bd5b2e9fbfdb71383f095453be1f49b03f1847de3e9a24063e2f3af73fc16bf83f9e381abf7f89a93fa271a83f6adc9dbe1901a13f407698bf83634a3fbeacc23ebc5c433ec513cb3e8eccc5bd91def23d797137bf6f89a23f4822a93ffd2733bd41ece03e7ce0953f93549e3fe8a41ac07f3a10bec7e8e63e788c93bfec1d133ecf1d643e0f9b7abf6d9e16bf45624d3fd939183facc47f3f683d553dc08a1e3fc1839b3fa902793fa1fb0a40550b90be6eb316bebe99c53fc31c66be19f002bed9361040427f90bf773ec33f0e9f833d32481abffa53cdbefd0f973ff355dfbfda4ba5bf2ac41b3f4e81893f182884bfde526abeea3bd53e29a9863f47ba2d3fb40d67be495483be22d621bfa04b703f5d3bfbbde38e513f1d5d3b3f52a4c03e69d0313f881685bf'), dtype=np.dtype(np.float32).newbyteorder('<')).astype(np.float32).reshape((4, 3, 3, 3)), name='w'),
        numpy_helper.from_array(np.array([0.8474212288856506, 0.6785219311714172, 0.9360620379447937, 0.6834840774536133], dtype=np.float32).reshape((4, 1, 1)), name='k'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 3, 8, 8]),
    ]
    outputs = [
        helper.make_tensor_value_info('y', 1, ['N', 4, 8, 8]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)], ir_version=8)


def build_common():
    nodes = [
        helper.make_node('Conv', ['x', 'w'], ['c'], name='conv', pads=[1, 1, 1, 1]),
        helper.make_node('Add', ['c', 'k'], ['y'], name='add'),
    ]
    initializers = [
        numpy_helper.from_array(np.frombuffer(bytes.fromhex('a928fcbe605f593d572adbbef77732bf24206cbfc58df9be211be73e3d7f833ed00244bf62664b3fd08fb2bebc1696bf3582b13e609a57bfaa4bd2bfe2711ac0ba82c73f5ed9613de3e9a5bf07a0134094c3533e370980bf913e5c3fb05bda3ef715b3bde1de73bfc0061ebea9f02fbf29ce0a406e57e4bfbeb0293f89b5eebed7a8933fc5fec5bd5b2e9fbfdb71383f095453be1f49b03f1847de3e9a24063e2f3af73fc16bf83f9e381abf7f89a93fa271a83f6adc9dbe1901a13f407698bf83634a3fbeacc23ebc5c433ec513cb3e8eccc5bd91def23d797137bf6f89a23f4822a93ffd2733bd41ece03e7ce0953f93549e3fe8a41ac07f3a10bec7e8e63e788c93bfec1d133ecf1d643e0f9b7abf6d9e16bf45624d3fd939183facc47f3f683d553dc08a1e3fc1839b3fa902793fa1fb0a40550b90be6eb316bebe99c53fc31c66be19f002bed9361040427f90bf773ec33f0e9f833d32481abffa53cdbefd0f973ff355dfbfda4ba5bf2ac41b3f4e81893f182884bfde526abeea3bd53e29a9863f47ba2d3fb40d67be495483be22d621bfa04b703f5d3bfbbde38e513f1d5d3b3f52a4c03e69d0313f881685bf'), dtype=np.dtype(np.float32).newbyteorder('<')).astype(np.float32).reshape((4, 3, 3, 3)), name='w'),
        numpy_helper.from_array(np.array([0.8474212288856506, 0.6785219311714172, 0.9360620379447937, 0.6834840774536133], dtype=np.float32).reshape((4, 1, 1)), name='k'),
    ]
    inputs = [
        helper.make_tensor_value_info('x', 1, ['N', 3, 8, 8]),
    ]
    outputs = [
        helper.make_tensor_value_info('y', 1, ['N', 4, 8, 8]),
    ]
    value_info = [
    ]
    graph = helper.make_graph(nodes, 'passcheck', inputs, outputs, initializer=initializers, value_info=value_info)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17)], ir_version=8)


register(Case(
    id='hunt/commute-operands-ort-extended-missed-optimization-eebb4e16',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/commute-operands-ort-extended-missed-optimization-eebb4e16:uncommon|ort:extended|parity|missed-optimization: ort:extended removed Add 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 2; kept in 'uncommon': add",
    opset=17,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
