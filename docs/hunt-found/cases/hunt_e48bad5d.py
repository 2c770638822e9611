"""hunt/all-empty-optional-inputs-onnx-infer-shapes-data-prop-annota-e48bad5d: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAsSEnBhc3NjaGVjay1nZW5lcmF0ZTqcAQpdCgVpbnB1dAoAEg9vdXRwdXRfc2VxdWVuY2UaEm4wX1NwbGl0VG9TZXF1ZW5jZSIP"
        "U3BsaXRUb1NlcXVlbmNlKgsKBGF4aXMYAaABAioPCghrZWVwZGltcxgAoAECEgFnWhsKBWlucHV0EhIKEAgBEgwKAggCCgIIBAoC"
        "CANiGwoPb3V0cHV0X3NlcXVlbmNlEggiBgoECgIIAUIECgAQGA=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAsSEnBhc3NjaGVjay1nZW5lcmF0ZTqaAQpbCgVpbnB1dBIPb3V0cHV0X3NlcXVlbmNlGhJuMF9TcGxpdFRvU2VxdWVuY2UiD1Nw"
        "bGl0VG9TZXF1ZW5jZSoLCgRheGlzGAGgAQIqDwoIa2VlcGRpbXMYAKABAhIBZ1obCgVpbnB1dBISChAIARIMCgIIAgoCCAQKAggD"
        "YhsKD291dHB1dF9zZXF1ZW5jZRIIIgYKBAoCCAFCBAoAEBg="
    ))


register(Case(
    id='hunt/all-empty-optional-inputs-onnx-infer-shapes-data-prop-annota-e48bad5d',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnx:infer-shapes-data-prop annotations annotation-violated')},
    doc='Reduced by passcheck hunt from finding hunt/all-empty-optional-inputs-onnx-infer-shapes-data-prop-annota-e48bad5d:uncommon|onnx:infer-shapes-data-prop|annotations|annotation-violated: annotation does not hold (binding 0): output_sequence[0]: annotated rank 3 [2, "unk__0", 3], run produced shape [2, 3]',
    opset=24,
    passes=('onnx:infer-shapes-data-prop',),
    tags=frozenset({"reduced"}),
))
