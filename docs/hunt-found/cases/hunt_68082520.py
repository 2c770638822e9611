"""hunt/neutral-shape-ops-ort-basic-missed-optimization-68082520: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6rwcKMQoBeAoCdHcSBWNfcHJlGhBuMF9Db252VHJhbnNwb3NlIg1Db252VHJhbnNwb3NlOgAKRAoFY19wcmUSC2NfdHJhbnNw"
        "b3NlGhBjX3RyYW5zcG9zZV9ub2RlIglUcmFuc3Bvc2UqEQoEcGVybUAAQAFAAkADoAEHCjoKC2NfdHJhbnNwb3NlCgdjX3NoYXBl"
        "EgljX3Jlc2hhcGUaDmNfcmVzaGFwZV9ub2RlIgdSZXNoYXBlCkMKCWNfcmVzaGFwZQoIY19zdGFydHMKBmNfZW5kcwoGY19heGVz"
        "EgdjX3NsaWNlGgxjX3NsaWNlX25vZGUiBVNsaWNlCjIKB2Nfc2xpY2UKBmNfb25lcxIIY19leHBhbmQaDWNfZXhwYW5kX25vZGUi"
        "BkV4cGFuZAoxCghjX2V4cGFuZBIBYxoNY19jb25jYXRfbm9kZSIGQ29uY2F0KgsKBGF4aXMYAKABAgpPCgFjCgVibjNfcwoFYm4z"
        "X2IKBWJuM19tCgVibjNfdhIBYhoVbjFfQmF0Y2hOb3JtYWxpemF0aW9uIhJCYXRjaE5vcm1hbGl6YXRpb246ABIBZyrpAQgCCAMI"
        "AwgDEAFCAnR3StgBaYR1vrKWuz/rqKQ/cY3YvyGlWz6Bpli/QmwavU0q/z96z5+++WvgvjQrgD/MVlQ/qcEcvuPQDD/Z6IM9j1L0"
        "vqF31j7I9jvA8e0QP7ro/r4VF4C+xQixP/yxMr9G748/O0w7vabv7j4+Dru+4LvGPsqlyT+Kkp6/x24DQH2NmT+laEC/auq4vsoS"
        "qz/TlMI/Ar6wPjzX5D6YJwxAUmNvPwkOwz3Lfai+m5CxP5jlmD8eDVo/FB8Zu1m4lD9Cu6Q+RjSkP9qRbz1/cyy9XFkTQHgEYL/c"
        "T5M+KhkIAxABQgVibjNfc0oMY6q0P/P4oD92X60/KhkIAxABQgVibjNfYkoMgpFKP60qZz8mGaA9KhkIAxABQgVibjNfbUoMs3OQ"
        "PvKQMD8vQt2+KhkIAxABQgVibjNfdkoM/JoiPw/WTj8oKSI/KhMIBBAHOgQAAAAAQgdjX3NoYXBlKhEIARAHOgEAQghjX3N0YXJ0"
        "cyoXCAEQBzoJ//////////9/QgZjX2VuZHMqDwgBEAc6AQBCBmNfYXhlcyoSCAQQBzoEAQEBAUIGY19vbmVzWhwKAXgSFwoVCAES"
        "EQoDEgFOCgIIAgoCCAQKAggEYhwKAWISFwoVCAESEQoDEgFOCgIIAwoCCAYKAggGQgQKABAS"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6lwQKLQoBeAoCdHcSAWMaEG4wX0NvbnZUcmFuc3Bvc2UiDUNvbnZUcmFuc3Bvc2U6AApPCgFjCgVibjNfcwoFYm4zX2IKBWJu"
        "M19tCgVibjNfdhIBYhoVbjFfQmF0Y2hOb3JtYWxpemF0aW9uIhJCYXRjaE5vcm1hbGl6YXRpb246ABIBZyrpAQgCCAMIAwgDEAFC"
        "AnR3StgBaYR1vrKWuz/rqKQ/cY3YvyGlWz6Bpli/QmwavU0q/z96z5+++WvgvjQrgD/MVlQ/qcEcvuPQDD/Z6IM9j1L0vqF31j7I"
        "9jvA8e0QP7ro/r4VF4C+xQixP/yxMr9G748/O0w7vabv7j4+Dru+4LvGPsqlyT+Kkp6/x24DQH2NmT+laEC/auq4vsoSqz/TlMI/"
        "Ar6wPjzX5D6YJwxAUmNvPwkOwz3Lfai+m5CxP5jlmD8eDVo/FB8Zu1m4lD9Cu6Q+RjSkP9qRbz1/cyy9XFkTQHgEYL/cT5M+KhkI"
        "AxABQgVibjNfc0oMY6q0P/P4oD92X60/KhkIAxABQgVibjNfYkoMgpFKP60qZz8mGaA9KhkIAxABQgVibjNfbUoMs3OQPvKQMD8v"
        "Qt2+KhkIAxABQgVibjNfdkoM/JoiPw/WTj8oKSI/WhwKAXgSFwoVCAESEQoDEgFOCgIIAgoCCAQKAggEYhwKAWISFwoVCAESEQoD"
        "EgFOCgIIAwoCCAYKAggGQgQKABAS"
    ))


register(Case(
    id='hunt/neutral-shape-ops-ort-basic-missed-optimization-68082520',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-shape-ops-ort-basic-missed-optimization-68082520:uncommon|ort:basic|parity|missed-optimization: ort:basic removed BatchNormalization 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 5; kept in 'uncommon': n1_BatchNormalization after Concat c_concat_node",
    opset=18,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
