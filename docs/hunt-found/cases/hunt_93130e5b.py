"""hunt/neutral-elementwise-ort-all-missed-optimization-93130e5b: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazr2BAocCgF4CgV0aHJlZRIBYxoGbjBfUG93IgNQb3c6AAobCgFjCgRjb2VmEgFrGgZuMV9NdWwiA011bDoA"
        "ChgKAXgKAWsSAWkaBm4yX0FkZCIDQWRkOgAKGwoBaQoEczJwaRIBahoGbjNfTXVsIgNNdWw6AAoXCgFqEgF0GgduNF9UYW5oIgRU"
        "YW5oOgAKGgoBdAoDb25lEgFvGgZuNV9BZGQiA0FkZDoACh8KAXgKBGhhbGYSBWhfcHJlGgZuNl9NdWwiA011bDoACicKBWhfcHJl"
        "CgZoX3plcm8SBWhfYWRkGgpoX2FkZF9ub2RlIgNBZGQKJgoFaF9hZGQKBWhfb25lEgVoX211bBoKaF9tdWxfbm9kZSIDTXVsCk4K"
        "BWhfbXVsEgtoX3JlZHVjZXN1bRoQaF9yZWR1Y2VzdW1fbm9kZSIJUmVkdWNlU3VtKhsKFG5vb3Bfd2l0aF9lbXB0eV9heGVzGAGg"
        "AQIKLgoLaF9yZWR1Y2VzdW0SAWgaC2hfY2FzdF9ub2RlIgRDYXN0KgkKAnRvGAGgAQIKGQoBaAoBbxICZ2waBm43X011bCIDTXVs"
        "OgAKFgoCZ2wSAXkaBm44X05lZyIDTmVnOgASAWcqDRABQgNvbmVKBAAAgD8qDhABQgRoYWxmSgQAAAA/Kg8QAUIFdGhyZWVKBAAA"
        "QEAqDhABQgRjb2VmSgQTJzc9Kg4QAUIEczJwaUoEKkJMPyoQEAEiBAAAAIBCBmhfemVybyoPEAEiBAAAgD9CBWhfb25lWhgKAXgS"
        "EwoRCAESDQoDEgFOCgIIBAoCCAhiGAoBeRITChEIARINCgMSAU4KAggECgIICEIECgAQEQ=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazr+AgocCgF4CgV0aHJlZRIBYxoGbjBfUG93IgNQb3c6AAobCgFjCgRjb2VmEgFrGgZuMV9NdWwiA011bDoA"
        "ChgKAXgKAWsSAWkaBm4yX0FkZCIDQWRkOgAKGwoBaQoEczJwaRIBahoGbjNfTXVsIgNNdWw6AAoXCgFqEgF0GgduNF9UYW5oIgRU"
        "YW5oOgAKGgoBdAoDb25lEgFvGgZuNV9BZGQiA0FkZDoAChsKAXgKBGhhbGYSAWgaBm42X011bCIDTXVsOgAKGQoBaAoBbxICZ2wa"
        "Bm43X011bCIDTXVsOgAKFgoCZ2wSAXkaBm44X05lZyIDTmVnOgASAWcqDRABQgNvbmVKBAAAgD8qDhABQgRoYWxmSgQAAAA/Kg8Q"
        "AUIFdGhyZWVKBAAAQEAqDhABQgRjb2VmSgQTJzc9Kg4QAUIEczJwaUoEKkJMP1oYCgF4EhMKEQgBEg0KAxIBTgoCCAQKAggIYhgK"
        "AXkSEwoRCAESDQoDEgFOCgIIBAoCCAhCBAoAEBE="
    ))


register(Case(
    id='hunt/neutral-elementwise-ort-all-missed-optimization-93130e5b',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-elementwise-ort-all-missed-optimization-93130e5b:uncommon|ort:all|parity|missed-optimization: ort:all removed Add 2→0 in 'common' but 3→2 in 'uncommon'; Mul 4→0 in 'common' but 5→4 in 'uncommon'; Pow 1→0 in 'common' but 1→1 in 'uncommon'; Tanh 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 2, uncommon 10; new op types: common ['com.microsoft::FastGelu'], uncommon none; kept in 'uncommon': n6_Mul, n0_Pow, n1_Mul after Pow n0_Pow, n2_Add, … (8 in all)",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
