"""hunt/shape-derived-count-ort-basic-missed-optimization-d9141e2f: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6rAQKJAoBeAoEc3QwMAoCZW4KAmh3CgR0d28yEgJwMCIFU2xpY2U6AAojCgF4EghwMV9zaGFwZRoNcDFfc2hhcGVfbm9kZSIF"
        "U2hhcGUKSQoIcDFfc2hhcGUKDXAxX2NvbnN0YW50XzESCXAxX2dhdGhlchoOcDFfZ2F0aGVyX25vZGUiBkdhdGhlcioLCgRheGlz"
        "GACgAQIKSAoLcDFfY29uc3RhbnQKCXAxX2dhdGhlchIJcDFfY29uY2F0Gg5wMV9jb25jYXRfbm9kZSIGQ29uY2F0KgsKBGF4aXMY"
        "AKABAgorCgF4CgRzdDEwCgJlbgoJcDFfY29uY2F0CgR0d28yEgJwMSIFU2xpY2U6ABIBZyocCAIQB0IEc3QwMEoQAAAAAAAAAAAA"
        "AAAAAAAAACoaCAIQB0ICZW5KEP////////9//////////38qGggCEAdCAmh3ShACAAAAAAAAAAMAAAAAAAAAKhwIAhAHQgR0d28y"
        "ShACAAAAAAAAAAIAAAAAAAAAKhwIAhAHQgRzdDEwShABAAAAAAAAAAAAAAAAAAAAKhQIARAHOgECQgtwMV9jb25zdGFudCoWCAEQ"
        "BzoBAUINcDFfY29uc3RhbnRfMVocCgF4EhcKFQgBEhEKAxIBTgoCCAMKAggICgIICGIdCgJwMBIXChUIARIRCgMSAU4KAggDCgII"
        "BAoCCARiHQoCcDESFwoVCAESEQoDEgFOCgIIAwoCCAQKAggEQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6vQIKJAoBeAoEc3QwMAoCZW4KAmh3CgR0d28yEgJwMCIFU2xpY2U6AAokCgF4CgRzdDEwCgJlbgoCaHcKBHR3bzISAnAxIgVT"
        "bGljZToAEgFnKhwIAhAHQgRzdDAwShAAAAAAAAAAAAAAAAAAAAAAKhoIAhAHQgJlbkoQ/////////3//////////fyoaCAIQB0IC"
        "aHdKEAIAAAAAAAAAAwAAAAAAAAAqHAgCEAdCBHR3bzJKEAIAAAAAAAAAAgAAAAAAAAAqHAgCEAdCBHN0MTBKEAEAAAAAAAAAAAAA"
        "AAAAAABaHAoBeBIXChUIARIRCgMSAU4KAggDCgIICAoCCAhiHQoCcDASFwoVCAESEQoDEgFOCgIIAwoCCAQKAggEYh0KAnAxEhcK"
        "FQgBEhEKAxIBTgoCCAMKAggECgIIBEIECgAQEQ=="
    ))


register(Case(
    id='hunt/shape-derived-count-ort-basic-missed-optimization-d9141e2f',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic folding missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/shape-derived-count-ort-basic-missed-optimization-d9141e2f:uncommon|ort:basic|folding|missed-optimization: Gather node 'p1_gather_node' always yields [3] (same for every binding) but ort:basic did not fold it",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
