"""hunt/float64-compute-ort-basic-missed-optimization-a19b2177: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqvAQonCgF4EgV4X2Y2NBoKeF9mNjRfY2FzdCIEQ2FzdCoJCgJ0bxgLoAECChsKBXhfZjY0EgFyGgduMF9S"
        "ZWx1IgRSZWx1OgAKIgoBchIBYxoHbjFfQ2FzdCIEQ2FzdCoJCgJ0bxgLoAECOgAKGQoBYxIBeRoIbjJfU2hhcGUiBVNoYXBlOgAS"
        "AWdaFAoBeBIPCg0IARIJCgMSAU4KAggIYg8KAXkSCgoICAcSBAoCCAJCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqCAQoXCgF4EgFyGgduMF9SZWx1IgRSZWx1OgAKIgoBchIBYxoHbjFfQ2FzdCIEQ2FzdCoJCgJ0bxgLoAEC"
        "OgAKGQoBYxIBeRoIbjJfU2hhcGUiBVNoYXBlOgASAWdaFAoBeBIPCg0IARIJCgMSAU4KAggIYg8KAXkSCgoICAcSBAoCCAJCBAoA"
        "EBE="
    ))


register(Case(
    id='hunt/float64-compute-ort-basic-missed-optimization-a19b2177',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/float64-compute-ort-basic-missed-optimization-a19b2177:uncommon|ort:basic|parity|missed-optimization: ort:basic removed Cast 1→0 in 'common' but 2→1 in 'uncommon'; nodes after: common 2, uncommon 3; kept in 'uncommon': x_f64_cast",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
