"""hunt/neutral-where-not-ort-basic-missed-optimization-913766ca: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6xQEKJgoBchIFY19wcmUaB24xX0Nhc3QiBENhc3QqCQoCdG8YC6ABAjoACjAKBmNfdHJ1ZQoFY19wcmUKB2Nfb3RoZXISAWMa"
        "DGNfd2hlcmVfbm9kZSIFV2hlcmUKGQoBYxIBeRoIbjJfU2hhcGUiBVNoYXBlOgASAWcqDRAJKgEBQgZjX3RydWUqFRALQgdjX290"
        "aGVyUggAAAAAAAAAAFoUCgFyEg8KDQgBEgkKAxIBTgoCCAhiDwoBeRIKCggIBxIECgIIAkIECgAQEQ=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6aQoiCgFyEgFjGgduMV9DYXN0IgRDYXN0KgkKAnRvGAugAQI6AAoZCgFjEgF5GghuMl9TaGFwZSIFU2hhcGU6ABIBZ1oUCgFy"
        "Eg8KDQgBEgkKAxIBTgoCCAhiDwoBeRIKCggIBxIECgIIAkIECgAQEQ=="
    ))


register(Case(
    id='hunt/neutral-where-not-ort-basic-missed-optimization-913766ca',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-where-not-ort-basic-missed-optimization-913766ca:uncommon|ort:basic|parity|missed-optimization: ort:basic removed Cast 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 3; kept in 'uncommon': n1_Cast",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
