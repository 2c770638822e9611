"""hunt/vary-value-negate-ort-extended-wrong-result-12d7f191: a minimal model showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6mAEKFwoBeBIBchoHbjBfUmVsdSIEUmVsdToACjMKAXIKAnM2CgJ6MBIBcRoRbjFfUXVhbnRpemVMaW5lYXIiDlF1YW50aXpl"
        "TGluZWFyOgASAWcqDggBEAFCAnM2SgTBwMC8KgkQAkICejBKAQBaFAoBeBIPCg0IARIJCgMSAU4KAggIYhQKAXESDwoNCAISCQoD"
        "EgFOCgIICEIECgAQEQ=="
    ))


build_common = build_uncommon

register(Case(
    id='hunt/vary-value-negate-ort-extended-wrong-result-12d7f191',
    forms={"common": Form(build_uncommon), 'uncommon': Form(build_uncommon, 'the same model (a one-form finding of ort:extended)')},
    doc="Reduced by passcheck hunt (the neighbour vary:value-negate@s6 of a 2-node base) from finding hunt/vary-value-negate-ort-extended-wrong-result-12d7f191:common|ort:extended|numeric|wrong-result: output 'q' (binding 0): 6 of 16 elements differ (exact dtype uint8)",
    opset=17,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
