"""hunt/parameter-leading-ones-ort-all-missed-optimization-d1d67f62: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqSAgoTCgF4CgRiaWFzEgF6IgNBZGQ6AAoaCgF6CgtzcXJ0Ml9yYW5rMhIBYSIDRGl2OgAKDQoBYRIBZSID"
        "RXJmOgAKEgoBZQoDb25lEgFmIgNBZGQ6AAoQCgF6CgFmEgFoIgNNdWw6AAoTCgFoCgRoYWxmEgF5IgNNdWw6ABIBZyoNEAFCA29u"
        "ZUoEAACAPyoOEAFCBGhhbGZKBAAAAD8qLAgIEAFCBGJpYXNKIAAAAL9u27a+t21bviVJkr0lSZI9t21bPm7btj4AAAA/KhkIAQgB"
        "EAFCC3NxcnQyX3JhbmsySgTzBLU/WhQKAXgSDwoNCAESCQoDEgFOCgIICGIUCgF5Eg8KDQgBEgkKAxIBTgoCCAhCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqCAgoTCgF4CgRiaWFzEgF6IgNBZGQ6AAoUCgF6CgVzcXJ0MhIBYSIDRGl2OgAKDQoBYRIBZSIDRXJmOgAK"
        "EgoBZQoDb25lEgFmIgNBZGQ6AAoQCgF6CgFmEgFoIgNNdWw6AAoTCgFoCgRoYWxmEgF5IgNNdWw6ABIBZyoPEAFCBXNxcnQySgTz"
        "BLU/Kg0QAUIDb25lSgQAAIA/Kg4QAUIEaGFsZkoEAAAAPyosCAgQAUIEYmlhc0ogAAAAv27btr63bVu+JUmSvSVJkj23bVs+btu2"
        "PgAAAD9aFAoBeBIPCg0IARIJCgMSAU4KAggIYhQKAXkSDwoNCAESCQoDEgFOCgIICEIECgAQEQ=="
    ))


register(Case(
    id='hunt/parameter-leading-ones-ort-all-missed-optimization-d1d67f62',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/parameter-leading-ones-ort-all-missed-optimization-d1d67f62:uncommon|ort:all|parity|missed-optimization: ort:all removed Add 2→0 in 'common' but 2→2 in 'uncommon'; Div 1→0 in 'common' but 1→1 in 'uncommon'; Erf 1→0 in 'common' but 1→1 in 'uncommon'; Mul 2→0 in 'common' but 2→2 in 'uncommon'; nodes after: common 1, uncommon 6; new op types: common ['com.microsoft::BiasGelu'], uncommon none; kept in 'uncommon': #0, #1 after Add #0, #2 after Div #1, #3 after Erf #2, … (6 in all)",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
