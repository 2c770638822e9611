"""hunt/all-empty-optional-inputs-input-rejected-c850f4e4: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6RgofCgF4CgASAWEaCm4wX1NxdWVlemUiB1NxdWVlemU6ABIBZ1oPCgF4EgoKCAgBEgQKAggIYg8KAWESCgoICAESBAoCCAhC"
        "BAoAEBI="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6RAodCgF4EgFhGgpuMF9TcXVlZXplIgdTcXVlZXplOgASAWdaDwoBeBIKCggIARIECgIICGIPCgFhEgoKCAgBEgQKAggIQgQK"
        "ABAS"
    ))


register(Case(
    id='hunt/all-empty-optional-inputs-input-rejected-c850f4e4',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing input runtime rejected')},
    doc="Reduced by passcheck hunt from finding hunt/all-empty-optional-inputs-input-rejected-c850f4e4:uncommon|input|runtime|rejected: onnxruntime cannot run this form (form 'common' runs on the same feeds): Fail: [ONNXRuntimeError] : 1 : FAIL : Non-zero status code returned while running Squeeze node. Name:'n0_Squeeze' Status Message: /onnxruntime_src/onnxruntime/core/providers/cpu/tensor/squeeze.h:78 virtual onnxruntime::common::Status onnxr…",
    opset=18,
    passes=('input',),
    tags=frozenset({"reduced"}),
))
