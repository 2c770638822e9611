"""hunt/explicit-broadcast-onnxscript-optimize-missed-optimization-ed55d783: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg60wEKSgoEemVybwoUemVyb191bnNxdWVlemVkX2F4ZXMSD3plcm9fdW5zcXVlZXplZBoQbjFfQWRkX3Vuc3F1ZWV6ZSIJVW5z"
        "cXVlZXplCiYKD3plcm9fdW5zcXVlZXplZAoBchIBcxoGbjFfQWRkIgNBZGQ6ABIBZyoOEAFCBHplcm9KBAAAAAAqHggCEAc6AgAB"
        "QhR6ZXJvX3Vuc3F1ZWV6ZWRfYXhlc1oUCgFyEg8KDQgBEgkKAxIBTgoCCAhiFAoBcxIPCg0IARIJCgMSAU4KAggIQgQKABAS"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6XAobCgR6ZXJvCgFyEgFzGgZuMV9BZGQiA0FkZDoAEgFnKg4QAUIEemVyb0oEAAAAAFoUCgFyEg8KDQgBEgkKAxIBTgoCCAhi"
        "FAoBcxIPCg0IARIJCgMSAU4KAggIQgQKABAS"
    ))


register(Case(
    id='hunt/explicit-broadcast-onnxscript-optimize-missed-optimization-ed55d783',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:optimize parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/explicit-broadcast-onnxscript-optimize-missed-optimization-ed55d783:uncommon|onnxscript:optimize|parity|missed-optimization: onnxscript:optimize removed Add 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 1; new op types: common ['Identity'], uncommon none; kept in 'uncommon': n1_Add",
    opset=18,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
