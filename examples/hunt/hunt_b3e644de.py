"""hunt/parameter-leading-ones-ort-basic-missed-optimization-b3e644de: a minimal pair showing one finding
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
            "CAg6lwMKJwoBeAoBdwoBYhIBYyIEQ29udioRCgRwYWRzQAFAAUABQAGgAQc6AAoXCgFjCghoc19hbHBoYRIBbSIDTXVsOgASAWcq"
            "6AEIAwgCCAMIAxABQgF3StgBVP2SP6NEhL/eFQu/d5QRwHxAvb3OcZM/JuebP9Hcgr8woI6/gKcPwIEJsb/pnwG/4qUSQOZm+D9u"
            "6QW/yAkovZpeir+onX8+/PKMP8xHB78WY1k/t0Ezv+Cg9j7HDM6+VKGIP040K0Bl3AG/yyabP0khkj3tE8O/ciCsPxhauz0yijS+"
            "AiRBwKifnb9EL5g/xbp0P2w3FD+EUgDA9xKUPc0mHz5EPwc9On/kvv56Rr6qggNAXcNrv9bTqz97QXW+Zl69P7S2Zr7lbOU9PqRX"
            "P3OBkj0MM6a+KhUIAxABQgFiSgy0o58/tQiQvt9/k78qEhABQghoc19hbHBoYUoEzcxMPlocCgF4EhcKFQgBEhEKAxIBTgoCCAIK"
            "AggGCgIIBmIcCgFtEhcKFQgBEhEKAxIBTgoCCAMKAggGCgIIBkIECgAQEQ=="
        )
    )


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(
        base64.b64decode(
            "CAg6qwMKJwoBeAoBdwoBYhIBYyIEQ29udioRCgRwYWRzQAFAAUABQAGgAQc6AAodCgFjCg5oc19hbHBoYV9yYW5rNBIBbSIDTXVs"
            "OgASAWcq6AEIAwgCCAMIAxABQgF3StgBVP2SP6NEhL/eFQu/d5QRwHxAvb3OcZM/JuebP9Hcgr8woI6/gKcPwIEJsb/pnwG/4qUS"
            "QOZm+D9u6QW/yAkovZpeir+onX8+/PKMP8xHB78WY1k/t0Ezv+Cg9j7HDM6+VKGIP040K0Bl3AG/yyabP0khkj3tE8O/ciCsPxha"
            "uz0yijS+AiRBwKifnb9EL5g/xbp0P2w3FD+EUgDA9xKUPc0mHz5EPwc9On/kvv56Rr6qggNAXcNrv9bTqz97QXW+Zl69P7S2Zr7l"
            "bOU9PqRXP3OBkj0MM6a+KhUIAxABQgFiSgy0o58/tQiQvt9/k78qIAgBCAEIAQgBEAFCDmhzX2FscGhhX3Jhbms0SgTNzEw+WhwK"
            "AXgSFwoVCAESEQoDEgFOCgIIAgoCCAYKAggGYhwKAW0SFwoVCAESEQoDEgFOCgIIAwoCCAYKAggGQgQKABAR"
        )
    )


register(
    Case(
        id="hunt/parameter-leading-ones-ort-basic-missed-optimization-b3e644de",
        forms={"common": Form(build_common), "uncommon": Form(build_uncommon, "the form ort:basic misses")},
        doc="Reduced by passcheck hunt from finding "
        "hunt/parameter-leading-ones-ort-basic-missed-optimization-b3e644de:uncommon|ort:basic|parity|"
        "missed-optimization: ort:basic removed Mul 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: "
        "common 1, uncommon 2; kept in 'uncommon': #1 after Conv #0",
        opset=17,
        passes=("ort:basic",),
        tags=frozenset({"reduced"}),
    )
)
