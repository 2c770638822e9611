"""hunt/explicit-broadcast-ort-extended-missed-optimization-75f11b24: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqBAwoTCgF4CgRiaWFzEgF6IgNBZGQ6AApICgVzcXJ0MgoVc3FydDJfdW5zcXVlZXplZF9heGVzEhBzcXJ0"
        "Ml91bnNxdWVlemVkGgthX3Vuc3F1ZWV6ZSIJVW5zcXVlZXplCh8KAXoKEHNxcnQyX3Vuc3F1ZWV6ZWQSAWEiA0RpdjoACg0KAWES"
        "AWUiA0VyZjoAChIKAWUKA29uZRIBZiIDQWRkOgAKEAoBegoBZhIBaCIDTXVsOgAKEwoBaAoEaGFsZhIBeSIDTXVsOgASAWcqDxAB"
        "QgVzcXJ0MkoE8wS1PyoNEAFCA29uZUoEAACAPyoOEAFCBGhhbGZKBAAAAD8qLAgIEAFCBGJpYXNKIAAAAL9u27a+t21bviVJkr0l"
        "SZI9t21bPm7btj4AAAA/KiAIAxAHOgMAAQJCFXNxcnQyX3Vuc3F1ZWV6ZWRfYXhlc1oYCgF4EhMKEQgBEg0KAxIBTgoCCAQKAggI"
        "YhgKAXkSEwoRCAESDQoDEgFOCgIIBAoCCAhCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqKAgoTCgF4CgRiaWFzEgF6IgNBZGQ6AAoUCgF6CgVzcXJ0MhIBYSIDRGl2OgAKDQoBYRIBZSIDRXJmOgAK"
        "EgoBZQoDb25lEgFmIgNBZGQ6AAoQCgF6CgFmEgFoIgNNdWw6AAoTCgFoCgRoYWxmEgF5IgNNdWw6ABIBZyoPEAFCBXNxcnQySgTz"
        "BLU/Kg0QAUIDb25lSgQAAIA/Kg4QAUIEaGFsZkoEAAAAPyosCAgQAUIEYmlhc0ogAAAAv27btr63bVu+JUmSvSVJkj23bVs+btu2"
        "PgAAAD9aGAoBeBITChEIARINCgMSAU4KAggECgIICGIYCgF5EhMKEQgBEg0KAxIBTgoCCAQKAggIQgQKABAR"
    ))


register(Case(
    id='hunt/explicit-broadcast-ort-extended-missed-optimization-75f11b24',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/explicit-broadcast-ort-extended-missed-optimization-75f11b24:uncommon|ort:extended|parity|missed-optimization: ort:extended removed Add 2→0 in 'common' but 2→2 in 'uncommon'; Div 1→0 in 'common' but 1→1 in 'uncommon'; Erf 1→0 in 'common' but 1→1 in 'uncommon'; Mul 2→0 in 'common' but 2→2 in 'uncommon'; nodes after: common 1, uncommon 6; new op types: common ['com.microsoft::BiasGelu'], uncommon none; kept in 'uncommon': #0, #1 after Add #0, #2 after Div #1, #3 after Erf #2, … (6 in all)",
    opset=17,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
