"""hunt/neutral-elementwise-ort-basic-missed-optimization-2aba03a0: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg64gIKIgoBchIBcxoHbjFfQ2FzdCIEQ2FzdCoJCgJ0bxgBoAECOgAKGQoBcxIFeV9wcmUaBm4yX05lZyIDTmVnOgAKJwoFeV9w"
        "cmUKBnlfemVybxIFeV9hZGQaCnlfYWRkX25vZGUiA0FkZAomCgV5X2FkZAoFeV9vbmUSBXlfbXVsGgp5X211bF9ub2RlIgNNdWwK"
        "TgoFeV9tdWwSC3lfcmVkdWNlc3VtGhB5X3JlZHVjZXN1bV9ub2RlIglSZWR1Y2VTdW0qGwoUbm9vcF93aXRoX2VtcHR5X2F4ZXMY"
        "AaABAgouCgt5X3JlZHVjZXN1bRIBeRoLeV9jYXN0X25vZGUiBENhc3QqCQoCdG8YAaABAhIBZyoQEAEiBAAAAIBCBnlfemVybyoP"
        "EAEiBAAAgD9CBXlfb25lWhQKAXISDwoNCAESCQoDEgFOCgIICGIUCgF5Eg8KDQgBEgkKAxIBTgoCCAhCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6agoiCgFyEgFzGgduMV9DYXN0IgRDYXN0KgkKAnRvGAGgAQI6AAoVCgFzEgF5GgZuMl9OZWciA05lZzoAEgFnWhQKAXISDwoN"
        "CAESCQoDEgFOCgIICGIUCgF5Eg8KDQgBEgkKAxIBTgoCCAhCBAoAEBE="
    ))


register(Case(
    id='hunt/neutral-elementwise-ort-basic-missed-optimization-2aba03a0',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-elementwise-ort-basic-missed-optimization-2aba03a0:uncommon|ort:basic|parity|missed-optimization: ort:basic removed Cast 1→0 in 'common' but 2→1 in 'uncommon'; nodes after: common 1, uncommon 3; kept in 'uncommon': y_cast_node after ReduceSum y_reducesum_node",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
