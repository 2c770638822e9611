"""hunt/parameter-leading-ones-onnxscript-optimize-missed-optimizati-883867ab: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6agogCgFyCglvbmVfcmFuazISAXMaBm4xX011bCIDTXVsOgASAWcqFwgBCAEQAUIJb25lX3JhbmsySgQAAIA/WhQKAXISDwoN"
        "CAESCQoDEgFOCgIICGIUCgFzEg8KDQgBEgkKAxIBTgoCCAhCBAoAEBI="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6WgoaCgFyCgNvbmUSAXMaBm4xX011bCIDTXVsOgASAWcqDRABQgNvbmVKBAAAgD9aFAoBchIPCg0IARIJCgMSAU4KAggIYhQK"
        "AXMSDwoNCAESCQoDEgFOCgIICEIECgAQEg=="
    ))


register(Case(
    id='hunt/parameter-leading-ones-onnxscript-optimize-missed-optimizati-883867ab',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:optimize parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/parameter-leading-ones-onnxscript-optimize-missed-optimizati-883867ab:uncommon|onnxscript:optimize|parity|missed-optimization: onnxscript:optimize removed Mul 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 1; new op types: common ['Identity'], uncommon none; kept in 'uncommon': n1_Mul",
    opset=18,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
