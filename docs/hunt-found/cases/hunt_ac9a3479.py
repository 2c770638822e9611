"""hunt/neutral-shape-ops-ort-all-missed-optimization-ac9a3479: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6wAQKPAoBeBILeF90cmFuc3Bvc2UaEHhfdHJhbnNwb3NlX25vZGUiCVRyYW5zcG9zZSoNCgRwZXJtQABAAaABBwo6Cgt4X3Ry"
        "YW5zcG9zZQoHeF9zaGFwZRIJeF9yZXNoYXBlGg54X3Jlc2hhcGVfbm9kZSIHUmVzaGFwZQpDCgl4X3Jlc2hhcGUKCHhfc3RhcnRz"
        "CgZ4X2VuZHMKBnhfYXhlcxIHeF9zbGljZRoMeF9zbGljZV9ub2RlIgVTbGljZQoyCgd4X3NsaWNlCgZ4X29uZXMSCHhfZXhwYW5k"
        "Gg14X2V4cGFuZF9ub2RlIgZFeHBhbmQKOAoIeF9leHBhbmQSCHhfY29uY2F0Gg14X2NvbmNhdF9ub2RlIgZDb25jYXQqCwoEYXhp"
        "cxgAoAECCiIKAmswCgFuCgJrMRICcmcaCG4yX1JhbmdlIgVSYW5nZToACiYKCHhfY29uY2F0CgJyZxIBZxoJbjNfR2F0aGVyIgZH"
        "YXRoZXI6ABIBZyoQEAdCAmswSggAAAAAAAAAACoQEAdCAmsxSggBAAAAAAAAACoRCAIQBzoCAABCB3hfc2hhcGUqEQgBEAc6AQBC"
        "CHhfc3RhcnRzKhcIARAHOgn//////////39CBnhfZW5kcyoPCAEQBzoBAEIGeF9heGVzKhAIAhAHOgIBAUIGeF9vbmVzWgsKAW4S"
        "BgoECAcSAFoUCgF4Eg8KDQgBEgkKAxIBTgoCCAhiGQoBZxIUChIIARIOCggSBnVua19fMAoCCAhCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6qgEKIgoCazAKAW4KAmsxEgJyZxoIbjJfUmFuZ2UiBVJhbmdlOgAKHwoBeAoCcmcSAWcaCW4zX0dhdGhlciIGR2F0aGVyOgAS"
        "AWcqEBAHQgJrMEoIAAAAAAAAAAAqEBAHQgJrMUoIAQAAAAAAAABaCwoBbhIGCgQIBxIAWhQKAXgSDwoNCAESCQoDEgFOCgIICGIZ"
        "CgFnEhQKEggBEg4KCBIGdW5rX18wCgIICEIECgAQEQ=="
    ))


register(Case(
    id='hunt/neutral-shape-ops-ort-all-missed-optimization-ac9a3479',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-shape-ops-ort-all-missed-optimization-ac9a3479:uncommon|ort:all|parity|missed-optimization: ort:all rewrote the forms into different ops: new op types: common ['Slice', 'Unsqueeze'], uncommon ['Unsqueeze']; nodes after: common 4, uncommon 7",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
