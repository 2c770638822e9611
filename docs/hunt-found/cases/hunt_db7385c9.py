"""hunt/neutral-shape-ops-ort-basic-missed-optimization-db7385c9: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazq8BAowCgF4EgFhGgxuMF9UcmFuc3Bvc2UiCVRyYW5zcG9zZSoNCgRwZXJtQAFAAKABBzoAChsKAWESBWJf"
        "cHJlGgduMV9SZWx1IgRSZWx1OgAKQAoFYl9wcmUSC2JfdHJhbnNwb3NlGhBiX3RyYW5zcG9zZV9ub2RlIglUcmFuc3Bvc2UqDQoE"
        "cGVybUAAQAGgAQcKOgoLYl90cmFuc3Bvc2UKB2Jfc2hhcGUSCWJfcmVzaGFwZRoOYl9yZXNoYXBlX25vZGUiB1Jlc2hhcGUKQwoJ"
        "Yl9yZXNoYXBlCghiX3N0YXJ0cwoGYl9lbmRzCgZiX2F4ZXMSB2Jfc2xpY2UaDGJfc2xpY2Vfbm9kZSIFU2xpY2UKMgoHYl9zbGlj"
        "ZQoGYl9vbmVzEghiX2V4cGFuZBoNYl9leHBhbmRfbm9kZSIGRXhwYW5kCjEKCGJfZXhwYW5kEgFiGg1iX2NvbmNhdF9ub2RlIgZD"
        "b25jYXQqCwoEYXhpcxgAoAECCjAKAWISAXkaDG4yX1RyYW5zcG9zZSIJVHJhbnNwb3NlKg0KBHBlcm1AAUAAoAEHOgASAWcqEQgC"
        "EAc6AgAAQgdiX3NoYXBlKhEIARAHOgEAQghiX3N0YXJ0cyoXCAEQBzoJ//////////9/QgZiX2VuZHMqDwgBEAc6AQBCBmJfYXhl"
        "cyoQCAIQBzoCAQFCBmJfb25lc1oUCgF4Eg8KDQgBEgkKAxIBTgoCCAhiFAoBeRIPCg0IARIJCgMSAU4KAggIQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqsAQowCgF4EgFhGgxuMF9UcmFuc3Bvc2UiCVRyYW5zcG9zZSoNCgRwZXJtQAFAAKABBzoAChcKAWESAWIa"
        "B24xX1JlbHUiBFJlbHU6AAowCgFiEgF5GgxuMl9UcmFuc3Bvc2UiCVRyYW5zcG9zZSoNCgRwZXJtQAFAAKABBzoAEgFnWhQKAXgS"
        "DwoNCAESCQoDEgFOCgIICGIUCgF5Eg8KDQgBEgkKAxIBTgoCCAhCBAoAEBE="
    ))


register(Case(
    id='hunt/neutral-shape-ops-ort-basic-missed-optimization-db7385c9',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-shape-ops-ort-basic-missed-optimization-db7385c9:uncommon|ort:basic|parity|missed-optimization: ort:basic removed Transpose 2→0 in 'common' but 3→2 in 'uncommon'; nodes after: common 1, uncommon 5; kept in 'uncommon': b_transpose_node after Relu n1_Relu, n2_Transpose after Concat b_concat_node",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
