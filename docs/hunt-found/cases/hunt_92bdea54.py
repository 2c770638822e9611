"""hunt/shape-derived-count-ort-basic-missed-optimization-92bdea54: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6wgUKJAoBeAoEc3QwMAoCZW4KAmh3CgR0d28yEgJwMCIFU2xpY2U6AAojCgF4EghwMV9zaGFwZRoNcDFfc2hhcGVfbm9kZSIF"
        "U2hhcGUKSQoIcDFfc2hhcGUKDXAxX2NvbnN0YW50XzESCXAxX2dhdGhlchoOcDFfZ2F0aGVyX25vZGUiBkdhdGhlcioLCgRheGlz"
        "GACgAQIKSAoLcDFfY29uc3RhbnQKCXAxX2dhdGhlchIJcDFfY29uY2F0Gg5wMV9jb25jYXRfbm9kZSIGQ29uY2F0KgsKBGF4aXMY"
        "AKABAgorCgF4CgRzdDEwCgJlbgoJcDFfY29uY2F0CgR0d28yEgJwMSIFU2xpY2U6AAokCgF4CgRzdDAxCgJlbgoCaHcKBHR3bzIS"
        "AnAyIgVTbGljZToACiQKAXgKBHN0MTEKAmVuCgJodwoEdHdvMhICcDMiBVNsaWNlOgAKKwoCcDAKAnAxCgJwMgoCcDMSAmM0IgZD"
        "b25jYXQqCwoEYXhpcxgBoAECOgASAWcqHAgCEAdCBHN0MDBKEAAAAAAAAAAAAAAAAAAAAAAqGggCEAdCAmVuShD/////////f///"
        "//////9/KhoIAhAHQgJod0oQAgAAAAAAAAADAAAAAAAAACocCAIQB0IEdHdvMkoQAgAAAAAAAAACAAAAAAAAACocCAIQB0IEc3Qx"
        "MEoQAQAAAAAAAAAAAAAAAAAAACocCAIQB0IEc3QwMUoQAAAAAAAAAAABAAAAAAAAACocCAIQB0IEc3QxMUoQAQAAAAAAAAABAAAA"
        "AAAAACoUCAEQBzoBAkILcDFfY29uc3RhbnQqFggBEAc6AQFCDXAxX2NvbnN0YW50XzFaHAoBeBIXChUIARIRCgMSAU4KAggDCgII"
        "CAoCCAhiHQoCYzQSFwoVCAESEQoDEgFOCgIIDAoCCAQKAggEQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg60wMKJAoBeAoEc3QwMAoCZW4KAmh3CgR0d28yEgJwMCIFU2xpY2U6AAokCgF4CgRzdDEwCgJlbgoCaHcKBHR3bzISAnAxIgVT"
        "bGljZToACiQKAXgKBHN0MDEKAmVuCgJodwoEdHdvMhICcDIiBVNsaWNlOgAKJAoBeAoEc3QxMQoCZW4KAmh3CgR0d28yEgJwMyIF"
        "U2xpY2U6AAorCgJwMAoCcDEKAnAyCgJwMxICYzQiBkNvbmNhdCoLCgRheGlzGAGgAQI6ABIBZyocCAIQB0IEc3QwMEoQAAAAAAAA"
        "AAAAAAAAAAAAACoaCAIQB0ICZW5KEP////////9//////////38qGggCEAdCAmh3ShACAAAAAAAAAAMAAAAAAAAAKhwIAhAHQgR0"
        "d28yShACAAAAAAAAAAIAAAAAAAAAKhwIAhAHQgRzdDEwShABAAAAAAAAAAAAAAAAAAAAKhwIAhAHQgRzdDAxShAAAAAAAAAAAAEA"
        "AAAAAAAAKhwIAhAHQgRzdDExShABAAAAAAAAAAEAAAAAAAAAWhwKAXgSFwoVCAESEQoDEgFOCgIIAwoCCAgKAggIYh0KAmM0EhcK"
        "FQgBEhEKAxIBTgoCCAwKAggECgIIBEIECgAQEQ=="
    ))


register(Case(
    id='hunt/shape-derived-count-ort-basic-missed-optimization-92bdea54',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/shape-derived-count-ort-basic-missed-optimization-92bdea54:uncommon|ort:basic|parity|missed-optimization: ort:basic removed Concat 1→0 in 'common' but 2→2 in 'uncommon'; Slice 4→0 in 'common' but 4→4 in 'uncommon'; nodes after: common 2, uncommon 8; new op types: common ['Gather', 'SpaceToDepth'], uncommon none; kept in 'uncommon': #0, p1_concat_node, #4, #5, … (6 in all)",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
