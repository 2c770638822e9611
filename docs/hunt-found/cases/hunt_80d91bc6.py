"""hunt/neutral-shape-ops-ort-extended-missed-optimization-80d91bc6: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqVBAobCgF4EgVhX3ByZRoHbjBfUmVsdSIEUmVsdToACkAKBWFfcHJlEgthX3RyYW5zcG9zZRoQYV90cmFu"
        "c3Bvc2Vfbm9kZSIJVHJhbnNwb3NlKg0KBHBlcm1AAEABoAEHCjoKC2FfdHJhbnNwb3NlCgdhX3NoYXBlEglhX3Jlc2hhcGUaDmFf"
        "cmVzaGFwZV9ub2RlIgdSZXNoYXBlCkMKCWFfcmVzaGFwZQoIYV9zdGFydHMKBmFfZW5kcwoGYV9heGVzEgdhX3NsaWNlGgxhX3Ns"
        "aWNlX25vZGUiBVNsaWNlCjIKB2Ffc2xpY2UKBmFfb25lcxIIYV9leHBhbmQaDWFfZXhwYW5kX25vZGUiBkV4cGFuZAoxCghhX2V4"
        "cGFuZBIBYRoNYV9jb25jYXRfbm9kZSIGQ29uY2F0KgsKBGF4aXMYAKABAgofCgFhCgJsbwoCaGkSAXkaB24xX0NsaXAiBENsaXA6"
        "ABIBZyoMEAFCAmxvSgQAAAC/KgwQAUICaGlKBAAAAD8qEQgCEAc6AgAAQgdhX3NoYXBlKhEIARAHOgEAQghhX3N0YXJ0cyoXCAEQ"
        "BzoJ//////////9/QgZhX2VuZHMqDwgBEAc6AQBCBmFfYXhlcyoQCAIQBzoCAQFCBmFfb25lc1oUCgF4Eg8KDQgBEgkKAxIBTgoC"
        "CAhiFAoBeRIPCg0IARIJCgMSAU4KAggIQgQKABAS"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqFAQoXCgF4EgFhGgduMF9SZWx1IgRSZWx1OgAKHwoBYQoCbG8KAmhpEgF5GgduMV9DbGlwIgRDbGlwOgAS"
        "AWcqDBABQgJsb0oEAAAAvyoMEAFCAmhpSgQAAAA/WhQKAXgSDwoNCAESCQoDEgFOCgIICGIUCgF5Eg8KDQgBEgkKAxIBTgoCCAhC"
        "BAoAEBI="
    ))


register(Case(
    id='hunt/neutral-shape-ops-ort-extended-missed-optimization-80d91bc6',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-shape-ops-ort-extended-missed-optimization-80d91bc6:uncommon|ort:extended|parity|missed-optimization: ort:extended removed Relu 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 5; kept in 'uncommon': n0_Relu",
    opset=18,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
