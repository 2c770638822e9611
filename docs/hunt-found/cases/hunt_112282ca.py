"""hunt/neutral-elementwise-ort-all-missed-optimization-112282ca: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6iAUKNgoBcAoCY3cKAmNiEgVjX3ByZRoHbjFfQ29udiIEQ29udioRCgRwYWRzQABAAEAAQACgAQc6AAonCgVjX3ByZQoGY196"
        "ZXJvEgVjX2FkZBoKY19hZGRfbm9kZSIDQWRkCiYKBWNfYWRkCgVjX29uZRIFY19tdWwaCmNfbXVsX25vZGUiA011bApOCgVjX211"
        "bBILY19yZWR1Y2VzdW0aEGNfcmVkdWNlc3VtX25vZGUiCVJlZHVjZVN1bSobChRub29wX3dpdGhfZW1wdHlfYXhlcxgBoAECCi4K"
        "C2NfcmVkdWNlc3VtEgFjGgtjX2Nhc3Rfbm9kZSIEQ2FzdCoJCgJ0bxgBoAECChcKAWMSAXkaB24yX1JlbHUiBFJlbHU6ABIBZyrp"
        "AQgDCAIIAwgDEAFCAmN3StgB/2LJPx9VFL7WUbc/McZqv0oZ8z5IUPY+C1GaP+9WUD9XE4Y/8qCRPpliuD9iJAe/fxb4PrVOGT/o"
        "ddO+oZh9P/JeTr5mPHi+B6wOPr2tIj+l8Q4/rGBQP/Lwvj+jKbw/QQsHP441m78lYE+/hj1gvxCmHr/BCR4/oMxBPuQURb40ZXy/"
        "Jk6iPzMZBcAC5i+/hfCnvxeZgr/E1Hy/9ymuP9VJ7j8phTC/sBZiv94tw79cZa6/jKRxv3Mhx79bg4M+zvDKP4qRtL+qKP6+4YEc"
        "PTYz1j9P3Xe/KhYIAxABQgJjYkoMEBcfPxR6wb+0Ie+9KhAQASIEAAAAgEIGY196ZXJvKg8QASIEAACAP0IFY19vbmVaHAoBcBIX"
        "ChUIARIRCgMSAU4KAggCCgIICAoCCAhiHAoBeRIXChUIARIRCgMSAU4KAggDCgIIBgoCCAZCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6kAMKMgoBcAoCY3cKAmNiEgFjGgduMV9Db252IgRDb252KhEKBHBhZHNAAEAAQABAAKABBzoAChcKAWMSAXkaB24yX1JlbHUi"
        "BFJlbHU6ABIBZyrpAQgDCAIIAwgDEAFCAmN3StgB/2LJPx9VFL7WUbc/McZqv0oZ8z5IUPY+C1GaP+9WUD9XE4Y/8qCRPpliuD9i"
        "JAe/fxb4PrVOGT/oddO+oZh9P/JeTr5mPHi+B6wOPr2tIj+l8Q4/rGBQP/Lwvj+jKbw/QQsHP441m78lYE+/hj1gvxCmHr/BCR4/"
        "oMxBPuQURb40ZXy/Jk6iPzMZBcAC5i+/hfCnvxeZgr/E1Hy/9ymuP9VJ7j8phTC/sBZiv94tw79cZa6/jKRxv3Mhx79bg4M+zvDK"
        "P4qRtL+qKP6+4YEcPTYz1j9P3Xe/KhYIAxABQgJjYkoMEBcfPxR6wb+0Ie+9WhwKAXASFwoVCAESEQoDEgFOCgIIAgoCCAgKAggI"
        "YhwKAXkSFwoVCAESEQoDEgFOCgIIAwoCCAYKAggGQgQKABAR"
    ))


register(Case(
    id='hunt/neutral-elementwise-ort-all-missed-optimization-112282ca',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-elementwise-ort-all-missed-optimization-112282ca:uncommon|ort:all|parity|missed-optimization: ort:all removed Relu 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 2, uncommon 4; kept in 'uncommon': n2_Relu after ReduceSum c_reducesum_node",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
