"""hunt/keepdims-unsqueeze-ort-basic-missed-optimization-c60f0867: a minimal pair showing one finding
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
            "CAgSCXBhc3NjaGVjazrzAgoqCgF4EgFtIgpSZWR1Y2VNZWFuKhQKBGF4ZXNA////////////AaABBzoAChAKAXgKAW0SAWQiA1N1"
            "YjoAChIKAWQKA3R3bxIBcCIDUG93OgAKKgoBcBIBdiIKUmVkdWNlTWVhbioUCgRheGVzQP///////////wGgAQc6AAoTCgF2CgNl"
            "cHMSAnZlIgNBZGQ6AAoPCgJ2ZRIBcyIEU3FydDoAChAKAWQKAXMSAW4iA0RpdjoAChAKAW4KAWcSAXQiA011bDoAChAKAXQKAWIS"
            "AXkiA0FkZDoAEgFnKikICBABQgFnSiAAAAA/SZIkP5IkST/btm0/kiSJP7dtmz/btq0/AADAPyopCAgQAUIBYkogAAAAv27btr63"
            "bVu+JUmSvSVJkj23bVs+btu2PgAAAD8qDRABQgN0d29KBAAAAEAqDRABQgNlcHNKBKzFJzdaDwoBeBIKCggIARIECgIICGIPCgF5"
            "EgoKCAgBEgQKAggIQgQKABAR"
        )
    )


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(
        base64.b64decode(
            "CAgSCXBhc3NjaGVjazrWAwpDCgF4EgltX3JlZHVjZWQiClJlZHVjZU1lYW4qFAoEYXhlc0D///////////8BoAEHKg8KCGtlZXBk"
            "aW1zGACgAQI6AAouCgltX3JlZHVjZWQKBm1fYXhlcxIBbRoLbV91bnNxdWVlemUiCVVuc3F1ZWV6ZQoQCgF4CgFtEgFkIgNTdWI6"
            "AAoSCgFkCgN0d28SAXAiA1BvdzoACioKAXASAXYiClJlZHVjZU1lYW4qFAoEYXhlc0D///////////8BoAEHOgAKEwoBdgoDZXBz"
            "EgJ2ZSIDQWRkOgAKDwoCdmUSAXMiBFNxcnQ6AAoQCgFkCgFzEgFuIgNEaXY6AAoQCgFuCgFnEgF0IgNNdWw6AAoQCgF0CgFiEgF5"
            "IgNBZGQ6ABIBZyopCAgQAUIBZ0ogAAAAP0mSJD+SJEk/27ZtP5IkiT+3bZs/27atPwAAwD8qKQgIEAFCAWJKIAAAAL9u27a+t21b"
            "viVJkr0lSZI9t21bPm7btj4AAAA/Kg0QAUIDdHdvSgQAAABAKg0QAUIDZXBzSgSsxSc3KhgIARAHOgr///////////8BQgZtX2F4"
            "ZXNaDwoBeBIKCggIARIECgIICGIPCgF5EgoKCAgBEgQKAggIQgQKABAR"
        )
    )


register(
    Case(
        id="hunt/keepdims-unsqueeze-ort-basic-missed-optimization-c60f0867",
        forms={"common": Form(build_common), "uncommon": Form(build_uncommon, "the form ort:basic misses")},
        doc="Reduced by passcheck hunt from finding "
        "hunt/keepdims-unsqueeze-ort-basic-missed-optimization-c60f0867:uncommon|ort:basic|parity|"
        "missed-optimization: ort:basic removed Add 2→0 in 'common' but 2→2 in 'uncommon'; "
        "Div 1→0 in 'common' but 1→1 in 'uncommon'; Mul 1→0 in 'common' but 1→1 in 'uncommon'; "
        "Pow 1→0 in 'common' but 1→1 in 'uncommon'; ReduceMean 2→0 in 'common' but 2→2 in 'uncommon'; "
        "Sqrt 1→0 in 'common' but 1→1 in 'uncommon'; Sub 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: "
        "common 1, uncommon 10; new op types: common ['LayerNormalization'], uncommon none; "
        "kept in 'uncommon': #0, #2, #3 after Sub #2, #4 after Pow #3, … (9 in all)",
        opset=17,
        passes=("ort:basic",),
        tags=frozenset({"reduced"}),
    )
)
