"""hunt/reshape-split-onnxscript-optimize-missed-optimization-fd6ad4f7: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg64gEKTAoBYQoVbjFfUmVzaGFwZV9mbGF0X3NoYXBlEhBuMV9SZXNoYXBlX3NwbGl0GhVuMV9SZXNoYXBlX3NwbGl0X25vZGUi"
        "B1Jlc2hhcGUKMAoQbjFfUmVzaGFwZV9zcGxpdAoCbTESAXIaCm4xX1Jlc2hhcGUiB1Jlc2hhcGU6ABIBZyoSCAEQB0ICbTFKCP//"
        "////////KicIARAHOgr///////////8BQhVuMV9SZXNoYXBlX2ZsYXRfc2hhcGVaDwoBYRIKCggIARIECgIICGIPCgFyEgoKCAgB"
        "EgQKAggIQgQKABAS"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6XAohCgFhCgJtMRIBchoKbjFfUmVzaGFwZSIHUmVzaGFwZToAEgFnKhIIARAHQgJtMUoI//////////9aDwoBYRIKCggIARIE"
        "CgIICGIPCgFyEgoKCAgBEgQKAggIQgQKABAS"
    ))


register(Case(
    id='hunt/reshape-split-onnxscript-optimize-missed-optimization-fd6ad4f7',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:optimize parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/reshape-split-onnxscript-optimize-missed-optimization-fd6ad4f7:common|onnxscript:optimize|parity|missed-optimization: onnxscript:optimize removed Reshape 2→0 in 'uncommon' but 1→1 in 'common'; nodes after: uncommon 1, common 1; new op types: uncommon ['Identity'], common none; kept in 'common': n1_Reshape",
    opset=18,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
