"""hunt/neutral-where-not-ort-extended-missed-optimization-69ab1682: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6hgIKJgoCazAKAW4KAmsxEgZyZ19wcmUaCG4yX1JhbmdlIgVSYW5nZToACjUKB3JnX3RydWUKBnJnX3ByZQoIcmdfb3RoZXIS"
        "AnJnGg1yZ193aGVyZV9ub2RlIgVXaGVyZQofCgF4CgJyZxIBZxoJbjNfR2F0aGVyIgZHYXRoZXI6ABIBZyoQEAdCAmswSggAAAAA"
        "AAAAACoQEAdCAmsxSggBAAAAAAAAACoOEAkqAQFCB3JnX3RydWUqDxAHOgEAQghyZ19vdGhlcloLCgFuEgYKBAgHEgBaFAoBeBIP"
        "Cg0IARIJCgMSAU4KAggIYhkKAWcSFAoSCAESDgoIEgZ1bmtfXzAKAggIQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6qgEKIgoCazAKAW4KAmsxEgJyZxoIbjJfUmFuZ2UiBVJhbmdlOgAKHwoBeAoCcmcSAWcaCW4zX0dhdGhlciIGR2F0aGVyOgAS"
        "AWcqEBAHQgJrMEoIAAAAAAAAAAAqEBAHQgJrMUoIAQAAAAAAAABaCwoBbhIGCgQIBxIAWhQKAXgSDwoNCAESCQoDEgFOCgIICGIZ"
        "CgFnEhQKEggBEg4KCBIGdW5rX18wCgIICEIECgAQEQ=="
    ))


register(Case(
    id='hunt/neutral-where-not-ort-extended-missed-optimization-69ab1682',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-where-not-ort-extended-missed-optimization-69ab1682:uncommon|ort:extended|parity|missed-optimization: ort:extended removed Gather 1→0 in 'common' but 1→1 in 'uncommon'; Range 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 4, uncommon 3; new op types: common ['Slice', 'Unsqueeze'], uncommon none; kept in 'uncommon': n2_Range, n3_Gather",
    opset=17,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
