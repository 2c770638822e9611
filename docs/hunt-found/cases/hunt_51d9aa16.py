"""hunt/neutral-where-not-ort-all-missed-optimization-51d9aa16: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6xwIKIAoBegoFc3FydDISBWFfcHJlGgZuMV9EaXYiA0RpdjoACjAKBmFfdHJ1ZQoFYV9wcmUKB2Ffb3RoZXISAWEaDGFfd2hl"
        "cmVfbm9kZSIFV2hlcmUKFQoBYRIBZRoGbjJfRXJmIgNFcmY6AAoaCgFlCgNvbmUSAWYaBm4zX0FkZCIDQWRkOgAKGAoBegoBZhIB"
        "aBoGbjRfTXVsIgNNdWw6AAobCgFoCgRoYWxmEgF5GgZuNV9NdWwiA011bDoAEgFnKg8QAUIFc3FydDJKBPMEtT8qDRABQgNvbmVK"
        "BAAAgD8qDhABQgRoYWxmSgQAAAA/Kg0QCSoBAUIGYV90cnVlKhEQASIEAAAAAEIHYV9vdGhlcloYCgF6EhMKEQgBEg0KAxIBTgoC"
        "CAQKAggIYhgKAXkSEwoRCAESDQoDEgFOCgIIBAoCCAhCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg67wEKHAoBegoFc3FydDISAWEaBm4xX0RpdiIDRGl2OgAKFQoBYRIBZRoGbjJfRXJmIgNFcmY6AAoaCgFlCgNvbmUSAWYaBm4z"
        "X0FkZCIDQWRkOgAKGAoBegoBZhIBaBoGbjRfTXVsIgNNdWw6AAobCgFoCgRoYWxmEgF5GgZuNV9NdWwiA011bDoAEgFnKg8QAUIF"
        "c3FydDJKBPMEtT8qDRABQgNvbmVKBAAAgD8qDhABQgRoYWxmSgQAAAA/WhgKAXoSEwoRCAESDQoDEgFOCgIIBAoCCAhiGAoBeRIT"
        "ChEIARINCgMSAU4KAggECgIICEIECgAQEQ=="
    ))


register(Case(
    id='hunt/neutral-where-not-ort-all-missed-optimization-51d9aa16',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-where-not-ort-all-missed-optimization-51d9aa16:uncommon|ort:all|parity|missed-optimization: ort:all removed Add 1→0 in 'common' but 1→1 in 'uncommon'; Div 1→0 in 'common' but 1→1 in 'uncommon'; Erf 1→0 in 'common' but 1→1 in 'uncommon'; Mul 2→0 in 'common' but 2→2 in 'uncommon'; nodes after: common 1, uncommon 6; new op types: common ['com.microsoft::Gelu'], uncommon none; kept in 'uncommon': n1_Div, n2_Erf after Where a_where_node, n3_Add after Erf n2_Erf, n4_Mul, … (5 in all)",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
