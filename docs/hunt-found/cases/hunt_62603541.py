"""hunt/commute-operands-ort-basic-missed-optimization-62603541: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6sgMKMgoBeAoCY3cKAmNiEgFjGgduMF9Db252IgRDb252KhEKBHBhZHNAAUABQAFAAaABBzoAChsKBGNhZGQKAWMSAWEaBm4x"
        "X0FkZCIDQWRkOgASAWcq6QEIAwgCCAMIAxABQgJjd0rYAf9iyT8fVRS+1lG3PzHGar9KGfM+SFD2PgtRmj/vVlA/VxOGP/KgkT6Z"
        "Yrg/YiQHv38W+D61Thk/6HXTvqGYfT/yXk6+Zjx4vgesDj69rSI/pfEOP6xgUD/y8L4/oym8P0ELBz+ONZu/JWBPv4Y9YL8Qph6/"
        "wQkeP6DMQT7kFEW+NGV8vyZOoj8zGQXAAuYvv4Xwp78XmYK/xNR8v/cprj/VSe4/KYUwv7AWYr/eLcO/XGWuv4ykcb9zIce/W4OD"
        "Ps7wyj+KkbS/qij+vuGBHD02M9Y/T913vyoWCAMQAUICY2JKDBAXHz8UesG/tCHvvSocCAMIAQgBEAFCBGNhZGRKDIuJ1D+NY24/"
        "pgwuP1ocCgF4EhcKFQgBEhEKAxIBTgoCCAIKAggGCgIIBmIcCgFhEhcKFQgBEhEKAxIBTgoCCAMKAggGCgIIBkIECgAQEQ=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6sgMKMgoBeAoCY3cKAmNiEgFjGgduMF9Db252IgRDb252KhEKBHBhZHNAAUABQAFAAaABBzoAChsKAWMKBGNhZGQSAWEaBm4x"
        "X0FkZCIDQWRkOgASAWcq6QEIAwgCCAMIAxABQgJjd0rYAf9iyT8fVRS+1lG3PzHGar9KGfM+SFD2PgtRmj/vVlA/VxOGP/KgkT6Z"
        "Yrg/YiQHv38W+D61Thk/6HXTvqGYfT/yXk6+Zjx4vgesDj69rSI/pfEOP6xgUD/y8L4/oym8P0ELBz+ONZu/JWBPv4Y9YL8Qph6/"
        "wQkeP6DMQT7kFEW+NGV8vyZOoj8zGQXAAuYvv4Xwp78XmYK/xNR8v/cprj/VSe4/KYUwv7AWYr/eLcO/XGWuv4ykcb9zIce/W4OD"
        "Ps7wyj+KkbS/qij+vuGBHD02M9Y/T913vyoWCAMQAUICY2JKDBAXHz8UesG/tCHvvSocCAMIAQgBEAFCBGNhZGRKDIuJ1D+NY24/"
        "pgwuP1ocCgF4EhcKFQgBEhEKAxIBTgoCCAIKAggGCgIIBmIcCgFhEhcKFQgBEhEKAxIBTgoCCAMKAggGCgIIBkIECgAQEQ=="
    ))


register(Case(
    id='hunt/commute-operands-ort-basic-missed-optimization-62603541',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/commute-operands-ort-basic-missed-optimization-62603541:uncommon|ort:basic|parity|missed-optimization: ort:basic removed Add 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 2; kept in 'uncommon': n1_Add",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
