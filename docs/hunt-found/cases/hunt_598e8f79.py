"""hunt/neutral-shape-ops-ort-extended-missed-optimization-598e8f79: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqGBgogCgF4CgV0aHJlZRIFY19wcmUaBm4wX1BvdyIDUG93OgAKQAoFY19wcmUSC2NfdHJhbnNwb3NlGhBj"
        "X3RyYW5zcG9zZV9ub2RlIglUcmFuc3Bvc2UqDQoEcGVybUAAQAGgAQcKOgoLY190cmFuc3Bvc2UKB2Nfc2hhcGUSCWNfcmVzaGFw"
        "ZRoOY19yZXNoYXBlX25vZGUiB1Jlc2hhcGUKQwoJY19yZXNoYXBlCghjX3N0YXJ0cwoGY19lbmRzCgZjX2F4ZXMSB2Nfc2xpY2Ua"
        "DGNfc2xpY2Vfbm9kZSIFU2xpY2UKMgoHY19zbGljZQoGY19vbmVzEghjX2V4cGFuZBoNY19leHBhbmRfbm9kZSIGRXhwYW5kCjEK"
        "CGNfZXhwYW5kEgFjGg1jX2NvbmNhdF9ub2RlIgZDb25jYXQqCwoEYXhpcxgAoAECChsKAWMKBGNvZWYSAWsaBm4xX011bCIDTXVs"
        "OgAKGAoBeAoBaxIBaRoGbjJfQWRkIgNBZGQ6AAobCgFpCgRzMnBpEgFqGgZuM19NdWwiA011bDoAChcKAWoSAXQaB240X1Rhbmgi"
        "BFRhbmg6AAoaCgF0CgNvbmUSAW8aBm41X0FkZCIDQWRkOgAKGwoBeAoEaGFsZhIBaBoGbjZfTXVsIgNNdWw6AAoZCgFoCgFvEgJn"
        "bBoGbjdfTXVsIgNNdWw6AAoWCgJnbBIBeRoGbjhfTmVnIgNOZWc6ABIBZyoNEAFCA29uZUoEAACAPyoOEAFCBGhhbGZKBAAAAD8q"
        "DxABQgV0aHJlZUoEAABAQCoOEAFCBGNvZWZKBBMnNz0qDhABQgRzMnBpSgQqQkw/KhEIAhAHOgIAAEIHY19zaGFwZSoRCAEQBzoB"
        "AEIIY19zdGFydHMqFwgBEAc6Cf//////////f0IGY19lbmRzKg8IARAHOgEAQgZjX2F4ZXMqEAgCEAc6AgEBQgZjX29uZXNaFAoB"
        "eBIPCg0IARIJCgMSAU4KAggIYhQKAXkSDwoNCAESCQoDEgFOCgIICEIECgAQEQ=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazr2AgocCgF4CgV0aHJlZRIBYxoGbjBfUG93IgNQb3c6AAobCgFjCgRjb2VmEgFrGgZuMV9NdWwiA011bDoA"
        "ChgKAXgKAWsSAWkaBm4yX0FkZCIDQWRkOgAKGwoBaQoEczJwaRIBahoGbjNfTXVsIgNNdWw6AAoXCgFqEgF0GgduNF9UYW5oIgRU"
        "YW5oOgAKGgoBdAoDb25lEgFvGgZuNV9BZGQiA0FkZDoAChsKAXgKBGhhbGYSAWgaBm42X011bCIDTXVsOgAKGQoBaAoBbxICZ2wa"
        "Bm43X011bCIDTXVsOgAKFgoCZ2wSAXkaBm44X05lZyIDTmVnOgASAWcqDRABQgNvbmVKBAAAgD8qDhABQgRoYWxmSgQAAAA/Kg8Q"
        "AUIFdGhyZWVKBAAAQEAqDhABQgRjb2VmSgQTJzc9Kg4QAUIEczJwaUoEKkJMP1oUCgF4Eg8KDQgBEgkKAxIBTgoCCAhiFAoBeRIP"
        "Cg0IARIJCgMSAU4KAggIQgQKABAR"
    ))


register(Case(
    id='hunt/neutral-shape-ops-ort-extended-missed-optimization-598e8f79',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-shape-ops-ort-extended-missed-optimization-598e8f79:uncommon|ort:extended|parity|missed-optimization: ort:extended removed Add 2→0 in 'common' but 2→2 in 'uncommon'; Mul 4→0 in 'common' but 4→4 in 'uncommon'; Pow 1→0 in 'common' but 1→1 in 'uncommon'; Tanh 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 2, uncommon 12; new op types: common ['com.microsoft::FastGelu'], uncommon none; kept in 'uncommon': n6_Mul, n0_Pow, n1_Mul after Concat c_concat_node, n2_Add, … (8 in all)",
    opset=17,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
