"""hunt/transpose-perm-omitted-onnxscript-optimize-missed-optimizati-b2625520: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6aAoTCgF4EgFhIglUcmFuc3Bvc2U6AAoiCgFhEgFiIglUcmFuc3Bvc2UqDQoEcGVybUABQACgAQc6ABIBZ1oUCgF4Eg8KDQgB"
        "EgkKAxIBTgoCCAhiFAoBYhIPCg0IARIJCgMSAU4KAggIQgQKABAS"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6dwoiCgF4EgFhIglUcmFuc3Bvc2UqDQoEcGVybUABQACgAQc6AAoiCgFhEgFiIglUcmFuc3Bvc2UqDQoEcGVybUABQACgAQc6"
        "ABIBZ1oUCgF4Eg8KDQgBEgkKAxIBTgoCCAhiFAoBYhIPCg0IARIJCgMSAU4KAggIQgQKABAS"
    ))


register(Case(
    id='hunt/transpose-perm-omitted-onnxscript-optimize-missed-optimizati-b2625520',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:optimize parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/transpose-perm-omitted-onnxscript-optimize-missed-optimizati-b2625520:uncommon|onnxscript:optimize|parity|missed-optimization: onnxscript:optimize removed Transpose 2→0 in 'common' but 2→2 in 'uncommon'; nodes after: common 1, uncommon 2; new op types: common ['Identity'], uncommon none; kept in 'uncommon': node, node_1 after Transpose node",
    opset=18,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
