"""hunt/neutral-shape-ops-ort-all-missed-optimization-ca790827: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazrTBApACgFhEgthX3RyYW5zcG9zZRoQYV90cmFuc3Bvc2Vfbm9kZSIJVHJhbnNwb3NlKhEKBHBlcm1AAEAB"
        "QAJAA6ABBwo6CgthX3RyYW5zcG9zZQoHYV9zaGFwZRIJYV9yZXNoYXBlGg5hX3Jlc2hhcGVfbm9kZSIHUmVzaGFwZQpDCglhX3Jl"
        "c2hhcGUKCGFfc3RhcnRzCgZhX2VuZHMKBmFfYXhlcxIHYV9zbGljZRoMYV9zbGljZV9ub2RlIgVTbGljZQoyCgdhX3NsaWNlCgZh"
        "X29uZXMSCGFfZXhwYW5kGg1hX2V4cGFuZF9ub2RlIgZFeHBhbmQKOAoIYV9leHBhbmQSCGFfY29uY2F0Gg1hX2NvbmNhdF9ub2Rl"
        "IgZDb25jYXQqCwoEYXhpcxgAoAECCjUKAWISAmJ0GgxuMF9UcmFuc3Bvc2UiCVRyYW5zcG9zZSoRCgRwZXJtQABAAUADQAKgAQc6"
        "AAomCghhX2NvbmNhdAoCYnQSAXkaCW4xX01hdE11bCIGTWF0TXVsOgASAWcqEwgEEAc6BAAAAABCB2Ffc2hhcGUqEQgBEAc6AQBC"
        "CGFfc3RhcnRzKhcIARAHOgn//////////39CBmFfZW5kcyoPCAEQBzoBAEIGYV9heGVzKhIIBBAHOgQBAQEBQgZhX29uZXNaHAoB"
        "YRIXChUIARIRCgMSAU4KAggCCgIIBAoCCAhaHAoBYhIXChUIARIRCgMSAU4KAggCCgIIBgoCCAhiHAoBeRIXChUIARIRCgMSAU4K"
        "AggCCgIIBAoCCAZCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazq1AQo1CgFiEgJidBoMbjBfVHJhbnNwb3NlIglUcmFuc3Bvc2UqEQoEcGVybUAAQAFAA0ACoAEHOgAKHwoB"
        "YQoCYnQSAXkaCW4xX01hdE11bCIGTWF0TXVsOgASAWdaHAoBYRIXChUIARIRCgMSAU4KAggCCgIIBAoCCAhaHAoBYhIXChUIARIR"
        "CgMSAU4KAggCCgIIBgoCCAhiHAoBeRIXChUIARIRCgMSAU4KAggCCgIIBAoCCAZCBAoAEBE="
    ))


register(Case(
    id='hunt/neutral-shape-ops-ort-all-missed-optimization-ca790827',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-shape-ops-ort-all-missed-optimization-ca790827:uncommon|ort:all|parity|missed-optimization: ort:all removed Transpose 1→0 in 'common' but 2→1 in 'uncommon'; nodes after: common 1, uncommon 4; kept in 'uncommon': a_transpose_node",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
