"""hunt/commute-operands-onnxscript-optimize-missed-optimization-565d01da: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqBAQoZCgJoaQoBeBIBYRoGbjBfTWluIgNNaW46AAoZCgFhCgJsbxIBeRoGbjFfTWF4IgNNYXg6ABIBZyoM"
        "EAFCAmxvSgQAAAC/KgwQAUICaGlKBAAAAD9aFAoBeBIPCg0IARIJCgMSAU4KAggIYhQKAXkSDwoNCAESCQoDEgFOCgIICEIECgAQ"
        "Eg=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqBAQoZCgF4CgJoaRIBYRoGbjBfTWluIgNNaW46AAoZCgFhCgJsbxIBeRoGbjFfTWF4IgNNYXg6ABIBZyoM"
        "EAFCAmxvSgQAAAC/KgwQAUICaGlKBAAAAD9aFAoBeBIPCg0IARIJCgMSAU4KAggIYhQKAXkSDwoNCAESCQoDEgFOCgIICEIECgAQ"
        "Eg=="
    ))


register(Case(
    id='hunt/commute-operands-onnxscript-optimize-missed-optimization-565d01da',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:optimize parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/commute-operands-onnxscript-optimize-missed-optimization-565d01da:uncommon|onnxscript:optimize|parity|missed-optimization: onnxscript:optimize removed Max 1→0 in 'common' but 1→1 in 'uncommon'; Min 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 2; new op types: common ['Clip'], uncommon none; kept in 'uncommon': n0_Min, n1_Max after Min n0_Min",
    opset=18,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
