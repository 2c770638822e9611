"""hunt/negative-axes-ort-all-invalid-model-e61bde32: a minimal pair showing one finding
(common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(
        base64.b64decode(
            "CAg6pAIKIQoBeBIBbSIKUmVkdWNlTWVhbioLCgRheGVzQACgAQc6AAoQCgF4CgFtEgFkIgNTdWI6AAoSCgFkCgN0d28SAXAiA1Bv"
            "dzoACiEKAXASAXYiClJlZHVjZU1lYW4qCwoEYXhlc0AAoAEHOgAKEwoBdgoDZXBzEgJ2ZSIDQWRkOgAKDwoCdmUSAXMiBFNxcnQ6"
            "AAoQCgFkCgFzEgFuIgNEaXY6AAoQCgFuCgFnEgF0IgNNdWw6ABIBZyoNEAFCA3R3b0oEAAAAQCoNEAFCA2Vwc0oErMUnNyopCAgQ"
            "AUIBZ0ogAAAAP0mSJD+SJEk/27ZtP5IkiT+3bZs/27atPwAAwD9aDwoBeBIKCggIARIECgIICGIPCgF0EgoKCAgBEgQKAggIQgQK"
            "ABAR"
        )
    )


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(
        base64.b64decode(
            "CAg6rQIKIQoBeBIBbSIKUmVkdWNlTWVhbioLCgRheGVzQACgAQc6AAoQCgF4CgFtEgFkIgNTdWI6AAoSCgFkCgN0d28SAXAiA1Bv"
            "dzoACioKAXASAXYiClJlZHVjZU1lYW4qFAoEYXhlc0D///////////8BoAEHOgAKEwoBdgoDZXBzEgJ2ZSIDQWRkOgAKDwoCdmUS"
            "AXMiBFNxcnQ6AAoQCgFkCgFzEgFuIgNEaXY6AAoQCgFuCgFnEgF0IgNNdWw6ABIBZyoNEAFCA3R3b0oEAAAAQCoNEAFCA2Vwc0oE"
            "rMUnNyopCAgQAUIBZ0ogAAAAP0mSJD+SJEk/27ZtP5IkiT+3bZs/27atPwAAwD9aDwoBeBIKCggIARIECgIICGIPCgF0EgoKCAgB"
            "EgQKAggIQgQKABAR"
        )
    )


register(
    Case(
        id="hunt/negative-axes-ort-all-invalid-model-e61bde32",
        forms={"common": Form(build_common), "uncommon": Form(build_uncommon, "the form ort:all misses")},
        doc="Reduced by passcheck hunt from finding "
        "hunt/negative-axes-ort-all-invalid-model-e61bde32:uncommon|ort:all|validity|invalid-model: "
        "the checker rejects the output of ort:all: ValidationError: No Op registered for "
        "SimplifiedLayerNormalization with domain_version of 17 ==> Context: Bad node spec for node. Name: "
        "/SimplifiedLayerNormFusion/ OpType: SimplifiedLayerNormalization",
        opset=17,
        passes=("ort:all",),
        tags=frozenset({"reduced"}),
    )
)
