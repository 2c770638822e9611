"""hunt/neutral-elementwise-ort-basic-missed-optimization-527191e2: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg62gUKHwoBeAoEcGFkcxIFcF9wcmUaBm4wX1BhZCIDUGFkOgAKJwoFcF9wcmUKBnBfemVybxIFcF9hZGQaCnBfYWRkX25vZGUi"
        "A0FkZAomCgVwX2FkZAoFcF9vbmUSBXBfbXVsGgpwX211bF9ub2RlIgNNdWwKTgoFcF9tdWwSC3BfcmVkdWNlc3VtGhBwX3JlZHVj"
        "ZXN1bV9ub2RlIglSZWR1Y2VTdW0qGwoUbm9vcF93aXRoX2VtcHR5X2F4ZXMYAaABAgouCgtwX3JlZHVjZXN1bRIBcBoLcF9jYXN0"
        "X25vZGUiBENhc3QqCQoCdG8YAaABAgoyCgFwCgJjdwoCY2ISAWMaB24xX0NvbnYiBENvbnYqEQoEcGFkc0AAQABAAEAAoAEHOgAS"
        "AWcqTAgIEAdCBHBhZHNKQAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAAQAA"
        "AAAAAAAq6QEIAwgCCAMIAxABQgJjd0rYAf9iyT8fVRS+1lG3PzHGar9KGfM+SFD2PgtRmj/vVlA/VxOGP/KgkT6ZYrg/YiQHv38W"
        "+D61Thk/6HXTvqGYfT/yXk6+Zjx4vgesDj69rSI/pfEOP6xgUD/y8L4/oym8P0ELBz+ONZu/JWBPv4Y9YL8Qph6/wQkeP6DMQT7k"
        "FEW+NGV8vyZOoj8zGQXAAuYvv4Xwp78XmYK/xNR8v/cprj/VSe4/KYUwv7AWYr/eLcO/XGWuv4ykcb9zIce/W4ODPs7wyj+KkbS/"
        "qij+vuGBHD02M9Y/T913vyoWCAMQAUICY2JKDBAXHz8UesG/tCHvvSoQEAEiBAAAAIBCBnBfemVybyoPEAEiBAAAgD9CBXBfb25l"
        "WhwKAXgSFwoVCAESEQoDEgFOCgIIAgoCCAYKAggGYhwKAWMSFwoVCAESEQoDEgFOCgIIAwoCCAYKAggGQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg64gMKGwoBeAoEcGFkcxIBcBoGbjBfUGFkIgNQYWQ6AAoyCgFwCgJjdwoCY2ISAWMaB24xX0NvbnYiBENvbnYqEQoEcGFkc0AA"
        "QABAAEAAoAEHOgASAWcqTAgIEAdCBHBhZHNKQAAAAAAAAAAAAAAAAAAAAAABAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
        "AAEAAAAAAAAAAQAAAAAAAAAq6QEIAwgCCAMIAxABQgJjd0rYAf9iyT8fVRS+1lG3PzHGar9KGfM+SFD2PgtRmj/vVlA/VxOGP/Kg"
        "kT6ZYrg/YiQHv38W+D61Thk/6HXTvqGYfT/yXk6+Zjx4vgesDj69rSI/pfEOP6xgUD/y8L4/oym8P0ELBz+ONZu/JWBPv4Y9YL8Q"
        "ph6/wQkeP6DMQT7kFEW+NGV8vyZOoj8zGQXAAuYvv4Xwp78XmYK/xNR8v/cprj/VSe4/KYUwv7AWYr/eLcO/XGWuv4ykcb9zIce/"
        "W4ODPs7wyj+KkbS/qij+vuGBHD02M9Y/T913vyoWCAMQAUICY2JKDBAXHz8UesG/tCHvvVocCgF4EhcKFQgBEhEKAxIBTgoCCAIK"
        "AggGCgIIBmIcCgFjEhcKFQgBEhEKAxIBTgoCCAMKAggGCgIIBkIECgAQEQ=="
    ))


register(Case(
    id='hunt/neutral-elementwise-ort-basic-missed-optimization-527191e2',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-elementwise-ort-basic-missed-optimization-527191e2:uncommon|ort:basic|parity|missed-optimization: ort:basic removed Pad 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 3; kept in 'uncommon': n0_Pad",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
