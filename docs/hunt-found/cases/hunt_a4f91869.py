"""hunt/neutral-shape-ops-ort-all-missed-optimization-a4f91869: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazrCBQoeCgF4CgN0d28SBXBfcHJlGgZuMF9Qb3ciA1BvdzoACkIKBXBfcHJlEgtwX3RyYW5zcG9zZRoQcF90"
        "cmFuc3Bvc2Vfbm9kZSIJVHJhbnNwb3NlKg8KBHBlcm1AAEABQAKgAQcKOgoLcF90cmFuc3Bvc2UKB3Bfc2hhcGUSCXBfcmVzaGFw"
        "ZRoOcF9yZXNoYXBlX25vZGUiB1Jlc2hhcGUKQwoJcF9yZXNoYXBlCghwX3N0YXJ0cwoGcF9lbmRzCgZwX2F4ZXMSB3Bfc2xpY2Ua"
        "DHBfc2xpY2Vfbm9kZSIFU2xpY2UKMgoHcF9zbGljZQoGcF9vbmVzEghwX2V4cGFuZBoNcF9leHBhbmRfbm9kZSIGRXhwYW5kCjEK"
        "CHBfZXhwYW5kEgFwGg1wX2NvbmNhdF9ub2RlIgZDb25jYXQqCwoEYXhpcxgAoAECCjkKAXASAXYaDW4xX1JlZHVjZU1lYW4iClJl"
        "ZHVjZU1lYW4qFAoEYXhlc0D///////////8BoAEHOgAKGwoBdgoDZXBzEgJ2ZRoGbjJfQWRkIgNBZGQ6AAoYCgJ2ZRIBcxoHbjNf"
        "U3FydCIEU3FydDoAChgKAXgKAXMSAW4aBm40X0RpdiIDRGl2OgAKGAoBZwoBbhIBeRoGbjVfTXVsIgNNdWw6ABIBZyoZCAgQCkIB"
        "Z0oQADglOUk6bjtJPNs8bj0APioLEApCA3R3b0oCAEAqCxAKQgNlcHNKAqgAKhIIAxAHOgMAAABCB3Bfc2hhcGUqEQgBEAc6AQBC"
        "CHBfc3RhcnRzKhcIARAHOgn//////////39CBnBfZW5kcyoPCAEQBzoBAEIGcF9heGVzKhEIAxAHOgMBAQFCBnBfb25lc1oYCgF4"
        "EhMKEQgKEg0KAxIBTgoCCAQKAggIYhgKAXkSEwoRCAoSDQoDEgFOCgIIBAoCCAhCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazquAgoaCgF4CgN0d28SAXAaBm4wX1BvdyIDUG93OgAKOQoBcBIBdhoNbjFfUmVkdWNlTWVhbiIKUmVkdWNl"
        "TWVhbioUCgRheGVzQP///////////wGgAQc6AAobCgF2CgNlcHMSAnZlGgZuMl9BZGQiA0FkZDoAChgKAnZlEgFzGgduM19TcXJ0"
        "IgRTcXJ0OgAKGAoBeAoBcxIBbhoGbjRfRGl2IgNEaXY6AAoYCgFnCgFuEgF5GgZuNV9NdWwiA011bDoAEgFnKhkICBAKQgFnShAA"
        "OCU5STpuO0k82zxuPQA+KgsQCkIDdHdvSgIAQCoLEApCA2Vwc0oCqABaGAoBeBITChEIChINCgMSAU4KAggECgIICGIYCgF5EhMK"
        "EQgKEg0KAxIBTgoCCAQKAggIQgQKABAR"
    ))


register(Case(
    id='hunt/neutral-shape-ops-ort-all-missed-optimization-a4f91869',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-shape-ops-ort-all-missed-optimization-a4f91869:uncommon|ort:all|parity|missed-optimization: ort:all removed Add 1→0 in 'common' but 1→1 in 'uncommon'; Div 1→0 in 'common' but 1→1 in 'uncommon'; Mul 1→0 in 'common' but 1→1 in 'uncommon'; Pow 1→0 in 'common' but 1→1 in 'uncommon'; ReduceMean 1→0 in 'common' but 1→1 in 'uncommon'; Sqrt 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 9; new op types: common ['SimplifiedLayerNormalization'], uncommon none; kept in 'uncommon': n0_Pow after Cast InsertedPrecisionFreeCast_x, n1_ReduceMean after Cast InsertedPrecisionFreeCast_p, n2_Add after ReduceMean n1_ReduceMean, n3_Sqrt after Add n2_Add, … (6 in all)",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
    rtol=0.02,
    atol=0.02,
))
