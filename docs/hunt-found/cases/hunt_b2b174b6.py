"""hunt/commute-operands-ort-all-missed-optimization-b2b174b6: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6hwIKJwoBeBIBcRICcXMSAnF6IhVEeW5hbWljUXVhbnRpemVMaW5lYXI6AAokCgFxCgJtcQoCcXoKAnp3EgJtaSINTWF0TXVs"
        "SW50ZWdlcjoAChoKAm1pEgFmIgRDYXN0KgkKAnRvGAGgAQI6AAoSCgJzdwoCcXMSAXMiA011bDoAChAKAWYKAXMSAW0iA011bDoA"
        "EgFnKiwICAgEEANCAm1xSiCy/eW6oyhhMGL/Q8Xx21fYXuKwTyxT8lTjKOe16EbRzSoJEANCAnp3SgEAKgwQAUICc3dKBArXIzxa"
        "FAoBeBIPCg0IARIJCgMSAU4KAggIYhQKAW0SDwoNCAESCQoDEgFOCgIIBEIECgAQEQ=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6hwIKJwoBeBIBcRICcXMSAnF6IhVEeW5hbWljUXVhbnRpemVMaW5lYXI6AAokCgFxCgJtcQoCcXoKAnp3EgJtaSINTWF0TXVs"
        "SW50ZWdlcjoAChoKAm1pEgFmIgRDYXN0KgkKAnRvGAGgAQI6AAoSCgJxcwoCc3cSAXMiA011bDoAChAKAWYKAXMSAW0iA011bDoA"
        "EgFnKiwICAgEEANCAm1xSiCy/eW6oyhhMGL/Q8Xx21fYXuKwTyxT8lTjKOe16EbRzSoJEANCAnp3SgEAKgwQAUICc3dKBArXIzxa"
        "FAoBeBIPCg0IARIJCgMSAU4KAggIYhQKAW0SDwoNCAESCQoDEgFOCgIIBEIECgAQEQ=="
    ))


register(Case(
    id='hunt/commute-operands-ort-all-missed-optimization-b2b174b6',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/commute-operands-ort-all-missed-optimization-b2b174b6:uncommon|ort:all|parity|missed-optimization: ort:all removed DynamicQuantizeLinear 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 2; new op types: common ['com.microsoft::DynamicQuantizeMatMul'], uncommon ['com.microsoft::MatMulIntegerToFloat']; kept in 'uncommon': #0",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
