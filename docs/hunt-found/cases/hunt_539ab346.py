"""hunt/explicit-broadcast-onnxscript-optimize-missed-optimization-539ab346: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6zQEKRwoDb25lChNvbmVfdW5zcXVlZXplZF9heGVzEg5vbmVfdW5zcXVlZXplZBoQbjFfTXVsX3Vuc3F1ZWV6ZSIJVW5zcXVl"
        "ZXplCiUKDm9uZV91bnNxdWVlemVkCgFyEgFzGgZuMV9NdWwiA011bDoAEgFnKg0QAUIDb25lSgQAAIA/Kh0IAhAHOgIAAUITb25l"
        "X3Vuc3F1ZWV6ZWRfYXhlc1oUCgFyEg8KDQgBEgkKAxIBTgoCCAhiFAoBcxIPCg0IARIJCgMSAU4KAggIQgQKABAS"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6WgoaCgNvbmUKAXISAXMaBm4xX011bCIDTXVsOgASAWcqDRABQgNvbmVKBAAAgD9aFAoBchIPCg0IARIJCgMSAU4KAggIYhQK"
        "AXMSDwoNCAESCQoDEgFOCgIICEIECgAQEg=="
    ))


register(Case(
    id='hunt/explicit-broadcast-onnxscript-optimize-missed-optimization-539ab346',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:optimize parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/explicit-broadcast-onnxscript-optimize-missed-optimization-539ab346:uncommon|onnxscript:optimize|parity|missed-optimization: onnxscript:optimize removed Mul 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 1; new op types: common ['Identity'], uncommon none; kept in 'uncommon': n1_Mul",
    opset=18,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
