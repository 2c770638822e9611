"""hunt/axes-as-attribute-onnxscript-optimize-missed-optimization-b1cedb9d: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazrBAQouCgF4EgFhGgxuMF9VbnNxdWVlemUiCVVuc3F1ZWV6ZSoLCgRheGVzQACgAQc6AAouCgFhEgF5Ggxu"
        "MV9VbnNxdWVlemUiCVVuc3F1ZWV6ZSoLCgRheGVzQAGgAQc6ABIBZyoTCAEQB0IDYXgwSggAAAAAAAAAACoTCAEQB0IDYXgxSggB"
        "AAAAAAAAAFoUCgF4Eg8KDQgBEgkKAxIBTgoCCAhiHAoBeRIXChUIARIRCgIIAQoCCAEKAxIBTgoCCAhCBAoAEAw="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqxAQomCgF4CgNheDASAWEaDG4wX1Vuc3F1ZWV6ZSIJVW5zcXVlZXplOgAKJgoBYQoDYXgxEgF5GgxuMV9V"
        "bnNxdWVlemUiCVVuc3F1ZWV6ZToAEgFnKhMIARAHQgNheDBKCAAAAAAAAAAAKhMIARAHQgNheDFKCAEAAAAAAAAAWhQKAXgSDwoN"
        "CAESCQoDEgFOCgIICGIcCgF5EhcKFQgBEhEKAggBCgIIAQoDEgFOCgIICEIECgAQEg=="
    ))


register(Case(
    id='hunt/axes-as-attribute-onnxscript-optimize-missed-optimization-b1cedb9d',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:optimize parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/axes-as-attribute-onnxscript-optimize-missed-optimization-b1cedb9d:uncommon|onnxscript:optimize|parity|missed-optimization: onnxscript:optimize removed Unsqueeze 2→1 in 'common' but 2→2 in 'uncommon'; nodes after: common 1, uncommon 2; kept in 'uncommon': n0_Unsqueeze, n1_Unsqueeze after Unsqueeze n0_Unsqueeze",
    opset=12,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
