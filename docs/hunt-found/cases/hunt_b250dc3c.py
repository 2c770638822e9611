"""hunt/parameter-leading-ones-ort-extended-missed-optimization-b250dc3c: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqnAQoiCgF4CgthbHBoYV9yYW5rMhIBYRoGbjBfTXVsIgNNdWw6AAodCgFhEgFzGgpuMV9TaWdtb2lkIgdT"
        "aWdtb2lkOgAKGAoBeAoBcxIBeRoGbjJfTXVsIgNNdWw6ABIBZyoZCAEIARABQgthbHBoYV9yYW5rMkoEI9vZP1oUCgF4Eg8KDQgB"
        "EgkKAxIBTgoCCAhiFAoBeRIPCg0IARIJCgMSAU4KAggIQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqXAQocCgF4CgVhbHBoYRIBYRoGbjBfTXVsIgNNdWw6AAodCgFhEgFzGgpuMV9TaWdtb2lkIgdTaWdtb2lk"
        "OgAKGAoBeAoBcxIBeRoGbjJfTXVsIgNNdWw6ABIBZyoPEAFCBWFscGhhSgQj29k/WhQKAXgSDwoNCAESCQoDEgFOCgIICGIUCgF5"
        "Eg8KDQgBEgkKAxIBTgoCCAhCBAoAEBE="
    ))


register(Case(
    id='hunt/parameter-leading-ones-ort-extended-missed-optimization-b250dc3c',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/parameter-leading-ones-ort-extended-missed-optimization-b250dc3c:uncommon|ort:extended|parity|missed-optimization: ort:extended removed Mul 2→0 in 'common' but 2→2 in 'uncommon'; Sigmoid 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 3; new op types: common ['com.microsoft::QuickGelu'], uncommon none; kept in 'uncommon': n0_Mul, n1_Sigmoid after Mul n0_Mul, n2_Mul",
    opset=17,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
