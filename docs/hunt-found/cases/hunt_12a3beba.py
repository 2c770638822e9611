"""hunt/neutral-elementwise-ort-all-missed-optimization-12a3beba: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqvAwo3CgFiEgZidF9wcmUaDG4wX1RyYW5zcG9zZSIJVHJhbnNwb3NlKg8KBHBlcm1AAEACQAGgAQc6AAor"
        "CgZidF9wcmUKB2J0X3plcm8SBmJ0X2FkZBoLYnRfYWRkX25vZGUiA0FkZAoqCgZidF9hZGQKBmJ0X29uZRIGYnRfbXVsGgtidF9t"
        "dWxfbm9kZSIDTXVsClEKBmJ0X211bBIMYnRfcmVkdWNlc3VtGhFidF9yZWR1Y2VzdW1fbm9kZSIJUmVkdWNlU3VtKhsKFG5vb3Bf"
        "d2l0aF9lbXB0eV9heGVzGAGgAQIKMQoMYnRfcmVkdWNlc3VtEgJidBoMYnRfY2FzdF9ub2RlIgRDYXN0KgkKAnRvGAGgAQIKHwoB"
        "YQoCYnQSAXkaCW4xX01hdE11bCIGTWF0TXVsOgASAWcqERABIgQAAACAQgdidF96ZXJvKhAQASIEAACAP0IGYnRfb25lWhgKAWES"
        "EwoRCAESDQoDEgFOCgIIBAoCCAhaGAoBYhITChEIARINCgMSAU4KAggGCgIICGIYCgF5EhMKEQgBEg0KAxIBTgoCCAQKAggGQgQK"
        "ABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqnAQozCgFiEgJidBoMbjBfVHJhbnNwb3NlIglUcmFuc3Bvc2UqDwoEcGVybUAAQAJAAaABBzoACh8KAWEK"
        "AmJ0EgF5GgluMV9NYXRNdWwiBk1hdE11bDoAEgFnWhgKAWESEwoRCAESDQoDEgFOCgIIBAoCCAhaGAoBYhITChEIARINCgMSAU4K"
        "AggGCgIICGIYCgF5EhMKEQgBEg0KAxIBTgoCCAQKAggGQgQKABAR"
    ))


register(Case(
    id='hunt/neutral-elementwise-ort-all-missed-optimization-12a3beba',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-elementwise-ort-all-missed-optimization-12a3beba:uncommon|ort:all|parity|missed-optimization: ort:all removed MatMul 1→0 in 'common' but 1→1 in 'uncommon'; Transpose 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 3; new op types: common ['com.microsoft::FusedMatMul'], uncommon none; kept in 'uncommon': n0_Transpose, n1_MatMul",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
