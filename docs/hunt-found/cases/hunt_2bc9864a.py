"""hunt/shape-derived-count-ort-all-missed-optimization-2bc9864a: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazrDAgoXCgF4EgFyGgduMF9SZWx1IgRSZWx1OgAKMQoBeBIPbjFfRXhwYW5kX3NoYXBlGhRuMV9FeHBhbmRf"
        "c2hhcGVfbm9kZSIFU2hhcGUKYwoPbjFfRXhwYW5kX3NoYXBlChJuMV9FeHBhbmRfY29uc3RhbnQSEG4xX0V4cGFuZF9nYXRoZXIa"
        "FW4xX0V4cGFuZF9nYXRoZXJfbm9kZSIGR2F0aGVyKgsKBGF4aXMYAKABAgotCgFyChBuMV9FeHBhbmRfZ2F0aGVyEgFzGgluMV9F"
        "eHBhbmQiBkV4cGFuZDoAChUKAXMSAXkaBm4yX05lZyIDTmVnOgASAWcqGwgBEAc6AQFCEm4xX0V4cGFuZF9jb25zdGFudFoUCgF4"
        "Eg8KDQgBEgkKAxIBTgoCCAhiFAoBeRIPCg0IARIJCgMSAU4KAggIQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqcAQoXCgF4EgFyGgduMF9SZWx1IgRSZWx1OgAKIwoBcgoGc2hhcGU4EgFzGgluMV9FeHBhbmQiBkV4cGFu"
        "ZDoAChUKAXMSAXkaBm4yX05lZyIDTmVnOgASAWcqFggBEAdCBnNoYXBlOEoICAAAAAAAAABaFAoBeBIPCg0IARIJCgMSAU4KAggI"
        "YhQKAXkSDwoNCAESCQoDEgFOCgIICEIECgAQEQ=="
    ))


register(Case(
    id='hunt/shape-derived-count-ort-all-missed-optimization-2bc9864a',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/shape-derived-count-ort-all-missed-optimization-2bc9864a:uncommon|ort:all|parity|missed-optimization: ort:all removed Expand 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 2, uncommon 5; kept in 'uncommon': n1_Expand after Relu n0_Relu",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
