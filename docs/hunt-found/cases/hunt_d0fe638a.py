"""hunt/neutral-elementwise-ort-all-missed-optimization-d0fe638a: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6wwMKIwoBcQoGcV96ZXJvEgVxX2FkZBoKcV9hZGRfbm9kZSIDQWRkCiYKBXFfYWRkCgVxX29uZRIFcV9tdWwaCnFfbXVsX25v"
        "ZGUiA011bAotCgVxX211bBIGcV9jYXN0GgtxX2Nhc3Rfbm9kZSIEQ2FzdCoJCgJ0bxgCoAECCjsKBnFfY2FzdAoCbXEKAnF6CgJ6"
        "dxICbWkaEG4xX01hdE11bEludGVnZXIiDU1hdE11bEludGVnZXI6AAojCgJtaRIBZhoHbjJfQ2FzdCIEQ2FzdCoJCgJ0bxgBoAEC"
        "OgAKGgoCcXMKAnN3EgFzGgZuM19NdWwiA011bDoAChgKAWYKAXMSAW0aBm40X011bCIDTXVsOgASAWcqLAgICAQQA0ICbXFKILL9"
        "5bqjKGEwYv9DxfHbV9he4rBPLFPyVOMo57XoRtHNKgkQA0ICendKAQAqDBABQgJzd0oECtcjPCoNEAIqAQBCBnFfemVybyoMEAIq"
        "AQFCBXFfb25lWhQKAXESDwoNCAISCQoDEgFOCgIICFoMCgJxehIGCgQIAhIAWgwKAnFzEgYKBAgBEgBiFAoBbRIPCg0IARIJCgMS"
        "AU4KAggEQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6pQIKNgoBcQoCbXEKAnF6CgJ6dxICbWkaEG4xX01hdE11bEludGVnZXIiDU1hdE11bEludGVnZXI6AAojCgJtaRIBZhoHbjJf"
        "Q2FzdCIEQ2FzdCoJCgJ0bxgBoAECOgAKGgoCcXMKAnN3EgFzGgZuM19NdWwiA011bDoAChgKAWYKAXMSAW0aBm40X011bCIDTXVs"
        "OgASAWcqLAgICAQQA0ICbXFKILL95bqjKGEwYv9DxfHbV9he4rBPLFPyVOMo57XoRtHNKgkQA0ICendKAQAqDBABQgJzd0oECtcj"
        "PFoUCgFxEg8KDQgCEgkKAxIBTgoCCAhaDAoCcXoSBgoECAISAFoMCgJxcxIGCgQIARIAYhQKAW0SDwoNCAESCQoDEgFOCgIIBEIE"
        "CgAQEQ=="
    ))


register(Case(
    id='hunt/neutral-elementwise-ort-all-missed-optimization-d0fe638a',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-elementwise-ort-all-missed-optimization-d0fe638a:uncommon|ort:all|parity|missed-optimization: ort:all removed Mul 2→0 in 'common' but 3→1 in 'uncommon'; nodes after: common 1, uncommon 3; kept in 'uncommon': q_mul_node after Add q_add_node",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
