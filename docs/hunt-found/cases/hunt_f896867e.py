"""hunt/shape-derived-count-slice-ort-basic-missed-optimization-f896867e: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazrXAQoXCgF4EgFyGgduMF9SZWx1IgRSZWx1OgAKSAoBeBIPbjFfRXhwYW5kX3NoYXBlGhRuMV9FeHBhbmRf"
        "c2hhcGVfbm9kZSIFU2hhcGUqFQoFc3RhcnQY////////////AaABAgosCgFyCg9uMV9FeHBhbmRfc2hhcGUSAXMaCW4xX0V4cGFu"
        "ZCIGRXhwYW5kOgAKFQoBcxIBeRoGbjJfTmVnIgNOZWc6ABIBZ1oUCgF4Eg8KDQgBEgkKAxIBTgoCCAhiFAoBeRIPCg0IARIJCgMS"
        "AU4KAggIQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqcAQoXCgF4EgFyGgduMF9SZWx1IgRSZWx1OgAKIwoBcgoGc2hhcGU4EgFzGgluMV9FeHBhbmQiBkV4cGFu"
        "ZDoAChUKAXMSAXkaBm4yX05lZyIDTmVnOgASAWcqFggBEAdCBnNoYXBlOEoICAAAAAAAAABaFAoBeBIPCg0IARIJCgMSAU4KAggI"
        "YhQKAXkSDwoNCAESCQoDEgFOCgIICEIECgAQEQ=="
    ))


register(Case(
    id='hunt/shape-derived-count-slice-ort-basic-missed-optimization-f896867e',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/shape-derived-count-slice-ort-basic-missed-optimization-f896867e:uncommon|ort:basic|parity|missed-optimization: ort:basic removed Expand 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 2, uncommon 4; kept in 'uncommon': n1_Expand after Relu n0_Relu",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
