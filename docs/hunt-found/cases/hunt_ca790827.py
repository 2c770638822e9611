"""hunt/neutral-shape-ops-ort-all-missed-optimization-ca790827: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazrBBAo+CgFhEgthX3RyYW5zcG9zZRoQYV90cmFuc3Bvc2Vfbm9kZSIJVHJhbnNwb3NlKg8KBHBlcm1AAEAB"
        "QAKgAQcKOgoLYV90cmFuc3Bvc2UKB2Ffc2hhcGUSCWFfcmVzaGFwZRoOYV9yZXNoYXBlX25vZGUiB1Jlc2hhcGUKQwoJYV9yZXNo"
        "YXBlCghhX3N0YXJ0cwoGYV9lbmRzCgZhX2F4ZXMSB2Ffc2xpY2UaDGFfc2xpY2Vfbm9kZSIFU2xpY2UKMgoHYV9zbGljZQoGYV9v"
        "bmVzEghhX2V4cGFuZBoNYV9leHBhbmRfbm9kZSIGRXhwYW5kCjgKCGFfZXhwYW5kEghhX2NvbmNhdBoNYV9jb25jYXRfbm9kZSIG"
        "Q29uY2F0KgsKBGF4aXMYAKABAgozCgFiEgJidBoMbjBfVHJhbnNwb3NlIglUcmFuc3Bvc2UqDwoEcGVybUAAQAJAAaABBzoACiYK"
        "CGFfY29uY2F0CgJidBIBeRoJbjFfTWF0TXVsIgZNYXRNdWw6ABIBZyoSCAMQBzoDAAAAQgdhX3NoYXBlKhEIARAHOgEAQghhX3N0"
        "YXJ0cyoXCAEQBzoJ//////////9/QgZhX2VuZHMqDwgBEAc6AQBCBmFfYXhlcyoRCAMQBzoDAQEBQgZhX29uZXNaGAoBYRITChEI"
        "ARINCgMSAU4KAggECgIICFoYCgFiEhMKEQgBEg0KAxIBTgoCCAYKAggIYhgKAXkSEwoRCAESDQoDEgFOCgIIBAoCCAZCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqnAQozCgFiEgJidBoMbjBfVHJhbnNwb3NlIglUcmFuc3Bvc2UqDwoEcGVybUAAQAJAAaABBzoACh8KAWEK"
        "AmJ0EgF5GgluMV9NYXRNdWwiBk1hdE11bDoAEgFnWhgKAWESEwoRCAESDQoDEgFOCgIIBAoCCAhaGAoBYhITChEIARINCgMSAU4K"
        "AggGCgIICGIYCgF5EhMKEQgBEg0KAxIBTgoCCAQKAggGQgQKABAR"
    ))


register(Case(
    id='hunt/neutral-shape-ops-ort-all-missed-optimization-ca790827',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-shape-ops-ort-all-missed-optimization-ca790827:uncommon|ort:all|parity|missed-optimization: ort:all removed Transpose 1→0 in 'common' but 2→1 in 'uncommon'; nodes after: common 1, uncommon 4; kept in 'uncommon': a_transpose_node",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
