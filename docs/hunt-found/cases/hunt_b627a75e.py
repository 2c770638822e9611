"""hunt/empty-optional-input-input-rejected-b627a75e: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAcSCXBhc3NjaGVjazpkCh8KAXgKABIBeRoKbjBfU3F1ZWV6ZSIHU3F1ZWV6ZToAEgFnKgwIAhAHOgIAAkICYXhaGwoBeBIWChQI"
        "ARIQCgIIAQoCCAMKAggBCgIIBGITCgF5Eg4KDAgBEggKAggDCgIIBEIECgAQDQ=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAcSCXBhc3NjaGVjazpiCh0KAXgSAXkaCm4wX1NxdWVlemUiB1NxdWVlemU6ABIBZyoMCAIQBzoCAAJCAmF4WhsKAXgSFgoUCAES"
        "EAoCCAEKAggDCgIIAQoCCARiEwoBeRIOCgwIARIICgIIAwoCCARCBAoAEA0="
    ))


register(Case(
    id='hunt/empty-optional-input-input-rejected-b627a75e',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing input runtime rejected')},
    doc="Reduced by passcheck hunt from finding hunt/empty-optional-input-input-rejected-b627a75e:uncommon|input|runtime|rejected: onnxruntime cannot run this form (form 'common' runs on the same feeds): Fail: [ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running Squeeze node. Name:'n0_Squeeze' Status Message: /onnxruntime_src/onnxruntime/core/providers/cpu/tensor/squeeze.h:78 virtual onnxruntime::common::Status onnxr…",
    opset=13,
    passes=('input',),
    tags=frozenset({"reduced"}),
))
