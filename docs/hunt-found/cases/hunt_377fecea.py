"""hunt/neutral-shape-ops-ort-basic-missed-optimization-377fecea: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6pQQKGQoBYxIFbl9wcmUaBm4xX05vdCIDTm90OgAKQAoFbl9wcmUSC25fdHJhbnNwb3NlGhBuX3RyYW5zcG9zZV9ub2RlIglU"
        "cmFuc3Bvc2UqDQoEcGVybUAAQAGgAQcKOgoLbl90cmFuc3Bvc2UKB25fc2hhcGUSCW5fcmVzaGFwZRoObl9yZXNoYXBlX25vZGUi"
        "B1Jlc2hhcGUKQwoJbl9yZXNoYXBlCghuX3N0YXJ0cwoGbl9lbmRzCgZuX2F4ZXMSB25fc2xpY2UaDG5fc2xpY2Vfbm9kZSIFU2xp"
        "Y2UKMgoHbl9zbGljZQoGbl9vbmVzEghuX2V4cGFuZBoNbl9leHBhbmRfbm9kZSIGRXhwYW5kCjEKCG5fZXhwYW5kEgFuGg1uX2Nv"
        "bmNhdF9ub2RlIgZDb25jYXQqCwoEYXhpcxgAoAECCiAKAW4KAXgKAXISAndoGghuM19XaGVyZSIFV2hlcmU6ABIBZyoRCAIQBzoC"
        "AABCB25fc2hhcGUqEQgBEAc6AQBCCG5fc3RhcnRzKhcIARAHOgn//////////39CBm5fZW5kcyoPCAEQBzoBAEIGbl9heGVzKhAI"
        "AhAHOgIBAUIGbl9vbmVzWhQKAWMSDwoNCAkSCQoDEgFOCgIICFoUCgF4Eg8KDQgBEgkKAxIBTgoCCAhaFAoBchIPCg0IARIJCgMS"
        "AU4KAggIYhUKAndoEg8KDQgBEgkKAxIBTgoCCAhCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6lQEKFQoBYxIBbhoGbjFfTm90IgNOb3Q6AAogCgFuCgF4CgFyEgJ3aBoIbjNfV2hlcmUiBVdoZXJlOgASAWdaFAoBYxIPCg0I"
        "CRIJCgMSAU4KAggIWhQKAXgSDwoNCAESCQoDEgFOCgIICFoUCgFyEg8KDQgBEgkKAxIBTgoCCAhiFQoCd2gSDwoNCAESCQoDEgFO"
        "CgIICEIECgAQEQ=="
    ))


register(Case(
    id='hunt/neutral-shape-ops-ort-basic-missed-optimization-377fecea',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-shape-ops-ort-basic-missed-optimization-377fecea:uncommon|ort:basic|parity|missed-optimization: ort:basic removed Not 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 5; kept in 'uncommon': n1_Not",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
