"""hunt/reshape-dims-explicit-onnxscript-optimize-missed-optimizatio-efebce8b: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6XwomCgFhCgdyX3NoYXBlEgFyGgpuMV9SZXNoYXBlIgdSZXNoYXBlOgASAWcqEAgBEAc6AQhCB3Jfc2hhcGVaDwoBYRIKCggI"
        "ARIECgIICGIPCgFyEgoKCAgBEgQKAggIQgQKABAS"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6XAohCgFhCgJtMRIBchoKbjFfUmVzaGFwZSIHUmVzaGFwZToAEgFnKhIIARAHQgJtMUoI//////////9aDwoBYRIKCggIARIE"
        "CgIICGIPCgFyEgoKCAgBEgQKAggIQgQKABAS"
    ))


register(Case(
    id='hunt/reshape-dims-explicit-onnxscript-optimize-missed-optimizatio-efebce8b',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:optimize parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/reshape-dims-explicit-onnxscript-optimize-missed-optimizatio-efebce8b:common|onnxscript:optimize|parity|missed-optimization: onnxscript:optimize removed Reshape 1→0 in 'uncommon' but 1→1 in 'common'; nodes after: uncommon 1, common 1; new op types: uncommon ['Identity'], common none; kept in 'common': n1_Reshape",
    opset=18,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
