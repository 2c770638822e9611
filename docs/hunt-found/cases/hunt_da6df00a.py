"""hunt/empty-optional-input-ort-extended-missed-optimization-da6df00a: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6kwIKHAoBeAoBdwoAEgFnGgduMF9HZW1tIgRHZW1tOgAKGQoBZwoCYzQSAXMaBm4xX1N1bSIDU3VtOgASAWcqjAEICAgEEAFC"
        "AXdKgAEjyPq9HV4TP4+rwL/c7zO/a7f9vrpun78lSi6//qXMPaHjx78DDOe/acr5vhDSHz/7Em8+jg28v4Q0iL0PL74+hqZrv7ww"
        "rL9m4kE+HNBjP7b+Nj/tu4O+WonEPbJU2z89I8e+pkmSvzjI2b+igka/6e+gP72Pwz/uGtS+56WcPyoaCAQQAUICYzRKEOXmnD/w"
        "jgo/ZoYpPWsmwT1aFAoBeBIPCg0IARIJCgMSAU4KAggIYhQKAXMSDwoNCAESCQoDEgFOCgIIBEIECgAQEQ=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6kQIKGgoBeAoBdxIBZxoHbjBfR2VtbSIER2VtbToAChkKAWcKAmM0EgFzGgZuMV9TdW0iA1N1bToAEgFnKowBCAgIBBABQgF3"
        "SoABI8j6vR1eEz+Pq8C/3O8zv2u3/b66bp+/JUouv/6lzD2h48e/Awznv2nK+b4Q0h8/+xJvPo4NvL+ENIi9Dy++Poama7+8MKy/"
        "ZuJBPhzQYz+2/jY/7buDvlqJxD2yVNs/PSPHvqZJkr84yNm/ooJGv+nvoD+9j8M/7hrUvuelnD8qGggEEAFCAmM0ShDl5pw/8I4K"
        "P2aGKT1rJsE9WhQKAXgSDwoNCAESCQoDEgFOCgIICGIUCgFzEg8KDQgBEgkKAxIBTgoCCARCBAoAEBE="
    ))


register(Case(
    id='hunt/empty-optional-input-ort-extended-missed-optimization-da6df00a',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/empty-optional-input-ort-extended-missed-optimization-da6df00a:uncommon|ort:extended|parity|missed-optimization: ort:extended removed Sum 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 2; kept in 'uncommon': n1_Sum after Gemm n0_Gemm",
    opset=17,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
