"""hunt/shape-derived-count-ort-all-missed-optimization-ee78981d: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6kwIKMQoBchIPbjFfRXhwYW5kX3NoYXBlGhRuMV9FeHBhbmRfc2hhcGVfbm9kZSIFU2hhcGUKYwoPbjFfRXhwYW5kX3NoYXBl"
        "ChJuMV9FeHBhbmRfY29uc3RhbnQSEG4xX0V4cGFuZF9nYXRoZXIaFW4xX0V4cGFuZF9nYXRoZXJfbm9kZSIGR2F0aGVyKgsKBGF4"
        "aXMYAKABAgotCgFyChBuMV9FeHBhbmRfZ2F0aGVyEgFzGgluMV9FeHBhbmQiBkV4cGFuZDoAEgFnKhsIARAHOgEBQhJuMV9FeHBh"
        "bmRfY29uc3RhbnRaFAoBchIPCg0IARIJCgMSAU4KAggIYhQKAXMSDwoNCAESCQoDEgFOCgIICEIECgAQEQ=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6bAojCgFyCgZzaGFwZTgSAXMaCW4xX0V4cGFuZCIGRXhwYW5kOgASAWcqFggBEAdCBnNoYXBlOEoICAAAAAAAAABaFAoBchIP"
        "Cg0IARIJCgMSAU4KAggIYhQKAXMSDwoNCAESCQoDEgFOCgIICEIECgAQEQ=="
    ))


register(Case(
    id='hunt/shape-derived-count-ort-all-missed-optimization-ee78981d',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all folding missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/shape-derived-count-ort-all-missed-optimization-ee78981d:uncommon|ort:all|folding|missed-optimization: Gather node 'n1_Expand_gather_node' always yields [8] (same for every binding) but ort:all did not fold it",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
