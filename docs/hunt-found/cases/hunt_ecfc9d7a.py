"""hunt/onnxscript-optimize-input-mutated-ecfc9d7a: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazr2AgoWCgF4CgNzNjQSAWEiB1Jlc2hhcGU6AAoYCgN3NDUKA3M0NRIBYiIHUmVzaGFwZToAChMKAWEKAWIS"
        "AW0iBk1hdE11bDoACkMSB3lfc2hhcGUaDHlfc2hhcGVfbm9kZSIIQ29uc3RhbnQqIAoFdmFsdWUqFAgDEAc6DAID////////////"
        "AUIAoAEEChoKAW0KB3lfc2hhcGUSAXkiB1Jlc2hhcGU6ABIBZypdCAQIBRABQgN3NDVKUCwtUL4/0zBAgfpCPg0ymb/O5eC+O73k"
        "PlYoCL/NiWi/d9FdPjAPcj4AH9Y/vkORP+fa+7475vy+6lg5vVWOzr9dv3I/g2mgvh8xUb+NvBk/KhsIAhAHQgNzNjRKEAYAAAAA"
        "AAAABAAAAAAAAAAqGwgCEAdCA3M0NUoQBAAAAAAAAAAFAAAAAAAAAFoXCgF4EhIKEAgBEgwKAggCCgIIAwoCCARiFwoBeRISChAI"
        "ARIMCgIIAgoCCAMKAggFQgQKABAS"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazrUAgoWCgF4CgNzNjQSAWEiB1Jlc2hhcGU6AAoYCgN3NDUKA3M0NRIBYiIHUmVzaGFwZToAChMKAWEKAWIS"
        "AW0iBk1hdE11bDoAChcKAW0KBHMyMzUSAXkiB1Jlc2hhcGU6ABIBZypdCAQIBRABQgN3NDVKUCwtUL4/0zBAgfpCPg0ymb/O5eC+"
        "O73kPlYoCL/NiWi/d9FdPjAPcj4AH9Y/vkORP+fa+7475vy+6lg5vVWOzr9dv3I/g2mgvh8xUb+NvBk/KhsIAhAHQgNzNjRKEAYA"
        "AAAAAAAABAAAAAAAAAAqGwgCEAdCA3M0NUoQBAAAAAAAAAAFAAAAAAAAACokCAMQB0IEczIzNUoYAgAAAAAAAAADAAAAAAAAAAUA"
        "AAAAAAAAWhcKAXgSEgoQCAESDAoCCAIKAggDCgIIBGIXCgF5EhIKEAgBEgwKAggCCgIIAwoCCAVCBAoAEBI="
    ))


register(Case(
    id='hunt/onnxscript-optimize-input-mutated-ecfc9d7a',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:optimize pass-contract input-mutated')},
    doc="Reduced by passcheck hunt from finding hunt/onnxscript-optimize-input-mutated-ecfc9d7a:uncommon|onnxscript:optimize|pass-contract|input-mutated: onnxscript:optimize changed the model it was given (graph.node at #3 'y_shape_node'); a caller that reuses its model after the pass sees it altered",
    opset=18,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
