"""hunt/parameter-leading-ones-ort-basic-missed-optimization-dc44cab3: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAkSCXBhc3NjaGVjazrZAQoUCgF4CgVzcXJ0MhIBYSIDRGl2OgAKDQoBYRIBZSIDRXJmOgAKGAoBZQoJb25lX3JhbmszEgFmIgNB"
        "ZGQ6AAoQCgF4CgFmEgFoIgNNdWw6AAoTCgFoCgRoYWxmEgF5IgNNdWw6ABIBZyoPEAFCBXNxcnQySgTzBLU/Kg4QAUIEaGFsZkoE"
        "AAAAPyoZCAEIAQgBEAFCCW9uZV9yYW5rM0oEAACAP1oYCgF4EhMKEQgBEg0KAxIBTgoCCAQKAggIYhgKAXkSEwoRCAESDQoDEgFO"
        "CgIIBAoCCAhCBAoAEBQ="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAkSCXBhc3NjaGVjazrHAQoUCgF4CgVzcXJ0MhIBYSIDRGl2OgAKDQoBYRIBZSIDRXJmOgAKEgoBZQoDb25lEgFmIgNBZGQ6AAoQ"
        "CgF4CgFmEgFoIgNNdWw6AAoTCgFoCgRoYWxmEgF5IgNNdWw6ABIBZyoPEAFCBXNxcnQySgTzBLU/Kg0QAUIDb25lSgQAAIA/Kg4Q"
        "AUIEaGFsZkoEAAAAP1oYCgF4EhMKEQgBEg0KAxIBTgoCCAQKAggIYhgKAXkSEwoRCAESDQoDEgFOCgIIBAoCCAhCBAoAEBQ="
    ))


register(Case(
    id='hunt/parameter-leading-ones-ort-basic-missed-optimization-dc44cab3',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/parameter-leading-ones-ort-basic-missed-optimization-dc44cab3:uncommon|ort:basic|parity|missed-optimization: ort:basic removed Add 1→0 in 'common' but 1→1 in 'uncommon'; Div 1→0 in 'common' but 1→1 in 'uncommon'; Erf 1→0 in 'common' but 1→1 in 'uncommon'; Mul 2→0 in 'common' but 2→2 in 'uncommon'; nodes after: common 1, uncommon 5; new op types: common ['Gelu'], uncommon none; kept in 'uncommon': #0, #1 after Div #0, #2 after Erf #1, #3, … (5 in all)",
    opset=20,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
