"""hunt/reshape-dims-implicit-onnxscript-optimize-missed-optimizatio-0b2d78be: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazrOAgoWCgF4CgNzNjQSAWEiB1Jlc2hhcGU6AAoYCgN3NDUKA3M0NRIBYiIHUmVzaGFwZToAChMKAWEKAWIS"
        "AW0iBk1hdE11bDoAChoKAW0KB3lfc2hhcGUSAXkiB1Jlc2hhcGU6ABIBZypdCAQIBRABQgN3NDVKUCwtUL4/0zBAgfpCPg0ymb/O"
        "5eC+O73kPlYoCL/NiWi/d9FdPjAPcj4AH9Y/vkORP+fa+7475vy+6lg5vVWOzr9dv3I/g2mgvh8xUb+NvBk/KhsIAhAHQgNzNjRK"
        "EAYAAAAAAAAABAAAAAAAAAAqGwgCEAdCA3M0NUoQBAAAAAAAAAAFAAAAAAAAACobCAMQBzoMAgP///////////8BQgd5X3NoYXBl"
        "WhcKAXgSEgoQCAESDAoCCAIKAggDCgIIBGIXCgF5EhIKEAgBEgwKAggCCgIIAwoCCAVCBAoAEBI="
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
    id='hunt/reshape-dims-implicit-onnxscript-optimize-missed-optimizatio-0b2d78be',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing onnxscript:optimize parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/reshape-dims-implicit-onnxscript-optimize-missed-optimizatio-0b2d78be:uncommon|onnxscript:optimize|parity|missed-optimization: onnxscript:optimize removed Reshape 3→0 in 'common' but 3→2 in 'uncommon'; nodes after: common 1, uncommon 3; kept in 'uncommon': node, node_2 after MatMul node_1",
    opset=18,
    passes=('onnxscript:optimize',),
    tags=frozenset({"reduced"}),
))
