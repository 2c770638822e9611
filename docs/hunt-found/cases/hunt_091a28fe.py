"""hunt/neutral-shape-ops-ort-extended-missed-optimization-091a28fe: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6ggcKIAoBeAoEcGFkcxIGcDJfcHJlGgZuMV9QYWQiA1BhZDoACkcKBnAyX3ByZRIMcDJfdHJhbnNwb3NlGhFwMl90cmFuc3Bv"
        "c2Vfbm9kZSIJVHJhbnNwb3NlKhEKBHBlcm1AAEABQAJAA6ABBwo+CgxwMl90cmFuc3Bvc2UKCHAyX3NoYXBlEgpwMl9yZXNoYXBl"
        "Gg9wMl9yZXNoYXBlX25vZGUiB1Jlc2hhcGUKSQoKcDJfcmVzaGFwZQoJcDJfc3RhcnRzCgdwMl9lbmRzCgdwMl9heGVzEghwMl9z"
        "bGljZRoNcDJfc2xpY2Vfbm9kZSIFU2xpY2UKNgoIcDJfc2xpY2UKB3AyX29uZXMSCXAyX2V4cGFuZBoOcDJfZXhwYW5kX25vZGUi"
        "BkV4cGFuZAo0CglwMl9leHBhbmQSAnAyGg5wMl9jb25jYXRfbm9kZSIGQ29uY2F0KgsKBGF4aXMYAKABAgogCgJwMgoCdzIKAWIS"
        "AmMyGgduM19Db252IgRDb252OgASAWcqTAgIEAdCBHBhZHNKQAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAEAAAAAAAAAAAAAAAAA"
        "AAAAAAAAAAAAAAEAAAAAAAAAAQAAAAAAAAAq6QEIAwgCCAMIAxABQgJ3MkrYAWFdED2Jb56/UC+2Pm6jIr810CG/Dd23v+0VZD4D"
        "zBw/e8fXvk7zeT8Fq6s92Kczv4e2BD++VRk/1vYSQORCwL4VGw1AnwyNP+/0Jb8Qc0M+3wBvv9hiTz8LAAW/3JU1v9gP5L7cP8O+"
        "h8XDv+jNG8CPQgjAj0deP4Bgrz1FYs2+OfWOPoxqKz5wVn8/ajqVv2kRyzwSor2+m2lvP6jMwb8idEq/rO+FPyz8l76CWDA+XUn/"
        "vZJ8Ib4537O+bnyuPxC/uL43SwC/LmyDPuKok76y7BI/Z+WLPyoVCAMQAUIBYkoMtKOfP7UIkL7ff5O/KhQIBBAHOgQAAAAAQghw"
        "Ml9zaGFwZSoSCAEQBzoBAEIJcDJfc3RhcnRzKhgIARAHOgn//////////39CB3AyX2VuZHMqEAgBEAc6AQBCB3AyX2F4ZXMqEwgE"
        "EAc6BAEBAQFCB3AyX29uZXNaHAoBeBIXChUIARIRCgMSAU4KAggCCgIIBgoCCAZiHQoCYzISFwoVCAESEQoDEgFOCgIIAwoCCAYK"
        "AggGQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg60QMKHAoBeAoEcGFkcxICcDIaBm4xX1BhZCIDUGFkOgAKIAoCcDIKAncyCgFiEgJjMhoHbjNfQ29udiIEQ29udjoAEgFnKkwI"
        "CBAHQgRwYWRzSkAAAAAAAAAAAAAAAAAAAAAAAQAAAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAEAAAAAAAAA"
        "KukBCAMIAggDCAMQAUICdzJK2AFhXRA9iW+ev1Avtj5uoyK/NdAhvw3dt7/tFWQ+A8wcP3vH175O83k/BaurPdinM7+HtgQ/vlUZ"
        "P9b2EkDkQsC+FRsNQJ8MjT/v9CW/EHNDPt8Ab7/YYk8/CwAFv9yVNb/YD+S+3D/DvofFw7/ozRvAj0IIwI9HXj+AYK89RWLNvjn1"
        "jj6Mais+cFZ/P2o6lb9pEcs8EqK9vptpbz+ozMG/InRKv6zvhT8s/Je+glgwPl1J/72SfCG+Od+zvm58rj8Qv7i+N0sAvy5sgz7i"
        "qJO+suwSP2fliz8qFQgDEAFCAWJKDLSjnz+1CJC+33+Tv1ocCgF4EhcKFQgBEhEKAxIBTgoCCAIKAggGCgIIBmIdCgJjMhIXChUI"
        "ARIRCgMSAU4KAggDCgIIBgoCCAZCBAoAEBE="
    ))


register(Case(
    id='hunt/neutral-shape-ops-ort-extended-missed-optimization-091a28fe',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-shape-ops-ort-extended-missed-optimization-091a28fe:uncommon|ort:extended|parity|missed-optimization: ort:extended removed Pad 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 5; kept in 'uncommon': n1_Pad",
    opset=17,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
