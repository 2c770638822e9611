"""hunt/shape-derived-count-slice-ort-basic-missed-optimization-74c575f2: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6pwEKSAoBchIPbjFfRXhwYW5kX3NoYXBlGhRuMV9FeHBhbmRfc2hhcGVfbm9kZSIFU2hhcGUqFQoFc3RhcnQY////////////"
        "AaABAgosCgFyCg9uMV9FeHBhbmRfc2hhcGUSAXMaCW4xX0V4cGFuZCIGRXhwYW5kOgASAWdaFAoBchIPCg0IARIJCgMSAU4KAggI"
        "YhQKAXMSDwoNCAESCQoDEgFOCgIICEIECgAQEQ=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6bAojCgFyCgZzaGFwZTgSAXMaCW4xX0V4cGFuZCIGRXhwYW5kOgASAWcqFggBEAdCBnNoYXBlOEoICAAAAAAAAABaFAoBchIP"
        "Cg0IARIJCgMSAU4KAggIYhQKAXMSDwoNCAESCQoDEgFOCgIICEIECgAQEQ=="
    ))


register(Case(
    id='hunt/shape-derived-count-slice-ort-basic-missed-optimization-74c575f2',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic folding missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/shape-derived-count-slice-ort-basic-missed-optimization-74c575f2:uncommon|ort:basic|folding|missed-optimization: Shape node 'n1_Expand_shape_node' always yields [8] (same for every binding) but ort:basic did not fold it",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
