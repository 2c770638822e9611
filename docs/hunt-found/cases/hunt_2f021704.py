"""hunt/neutral-where-not-ort-all-missed-optimization-2f021704: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazr1BAoiCgF4CgF3EgVtX3ByZRoJbjBfTWF0TXVsIgZNYXRNdWw6AAowCgZtX3RydWUKBW1fcHJlCgdtX290"
        "aGVyEgFtGgxtX3doZXJlX25vZGUiBVdoZXJlChwKAW0KBXNjYWxlEgF5GgZuMV9NdWwiA011bDoAEgFnKowDCAgIBhALQgF3SoAD"
        "+eJxi46M5r/MhhWp6LfsP5jvOECUUeI/IcrGejtn3r/dSc+ZBbHwvxwA7Sn4MO0/HFKJA9+e2L9rhiXa/5Pjvz4GMtJtP+2/ZY4T"
        "9AQZ4j9rlkZU+nzfv/JQXNsxGuK/btUJNVYc9z+sLoPg92rOP/gKg8HI9hW/6YHd5+z3/j8B7AB/Z/rav72iYaPMCuG/HoyISaBj"
        "sr/nNTWKJ7rivwprfaKj2dW/3Dh8lb4P5L8t4U7x2EYGwKEwHKc2yfi/jQYo7pLm2T+YcBmyrnbZvw4F9HtLZfS/n0VpK8HC4D9/"
        "zri15vX1P2EN8YGViOS/k5UIEqB35T8jpTs8t9rrv8vkymOe7uU/3wpAKs6R5D/5hx6N33T5v+Do2UZxOfs/tt81lwaHzb+/svWL"
        "wquVP1hkk+OvBvK/+Yuok+8r9T/jOe5wiZzsv7g2umbviOw/4ws4Bdul7T8aIyF1kBvqvxn+O3GSFNa/micZAW5N5T8BpxG19vLy"
        "P6axFiIzVPA/KhMQC0IFc2NhbGVKCAAAAAAAAMA/Kg0QCSoBAUIGbV90cnVlKhUQC0IHbV9vdGhlclIIAAAAAAAAAABaGAoBeBIT"
        "ChEICxINCgMSAU4KAggECgIICGIYCgF5EhMKEQgLEg0KAxIBTgoCCAQKAggGQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqZBAoeCgF4CgF3EgFtGgluMF9NYXRNdWwiBk1hdE11bDoAChwKAW0KBXNjYWxlEgF5GgZuMV9NdWwiA011"
        "bDoAEgFnKowDCAgIBhALQgF3SoAD+eJxi46M5r/MhhWp6LfsP5jvOECUUeI/IcrGejtn3r/dSc+ZBbHwvxwA7Sn4MO0/HFKJA9+e"
        "2L9rhiXa/5Pjvz4GMtJtP+2/ZY4T9AQZ4j9rlkZU+nzfv/JQXNsxGuK/btUJNVYc9z+sLoPg92rOP/gKg8HI9hW/6YHd5+z3/j8B"
        "7AB/Z/rav72iYaPMCuG/HoyISaBjsr/nNTWKJ7rivwprfaKj2dW/3Dh8lb4P5L8t4U7x2EYGwKEwHKc2yfi/jQYo7pLm2T+YcBmy"
        "rnbZvw4F9HtLZfS/n0VpK8HC4D9/zri15vX1P2EN8YGViOS/k5UIEqB35T8jpTs8t9rrv8vkymOe7uU/3wpAKs6R5D/5hx6N33T5"
        "v+Do2UZxOfs/tt81lwaHzb+/svWLwquVP1hkk+OvBvK/+Yuok+8r9T/jOe5wiZzsv7g2umbviOw/4ws4Bdul7T8aIyF1kBvqvxn+"
        "O3GSFNa/micZAW5N5T8BpxG19vLyP6axFiIzVPA/KhMQC0IFc2NhbGVKCAAAAAAAAMA/WhgKAXgSEwoRCAsSDQoDEgFOCgIIBAoC"
        "CAhiGAoBeRITChEICxINCgMSAU4KAggECgIIBkIECgAQEQ=="
    ))


register(Case(
    id='hunt/neutral-where-not-ort-all-missed-optimization-2f021704',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-where-not-ort-all-missed-optimization-2f021704:uncommon|ort:all|parity|missed-optimization: ort:all removed MatMul 1→0 in 'common' but 1→1 in 'uncommon'; Mul 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 3; new op types: common ['com.microsoft::FusedMatMul'], uncommon none; kept in 'uncommon': n0_MatMul, n1_Mul after Where m_where_node",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
