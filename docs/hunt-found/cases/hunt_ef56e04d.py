"""hunt/shape-derived-count-slice-ort-basic-missed-optimization-ef56e04d: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6ugUKJAoBeAoEc3QwMAoCZW4KAmh3CgR0d28yEgJwMCIFU2xpY2U6AAokCgF4CgRzdDEwCgJlbgoCaHcKBHR3bzISAnAxIgVT"
        "bGljZToACiQKAXgKBHN0MDEKAmVuCgJodwoEdHdvMhICcDIiBVNsaWNlOgAKTwoBeBIIcDNfc2hhcGUaDXAzX3NoYXBlX25vZGUi"
        "BVNoYXBlKhMKA2VuZBj+//////////8BoAECKhUKBXN0YXJ0GP3//////////wGgAQIKRwoLcDNfY29uc3RhbnQKCHAzX3NoYXBl"
        "EglwM19jb25jYXQaDnAzX2NvbmNhdF9ub2RlIgZDb25jYXQqCwoEYXhpcxgAoAECCisKAXgKBHN0MTEKAmVuCglwM19jb25jYXQK"
        "BHR3bzISAnAzIgVTbGljZToAEgFnKhwIAhAHQgRzdDAwShAAAAAAAAAAAAAAAAAAAAAAKhoIAhAHQgJlbkoQ/////////3//////"
        "////fyoaCAIQB0ICaHdKEAIAAAAAAAAAAwAAAAAAAAAqHAgCEAdCBHR3bzJKEAIAAAAAAAAAAgAAAAAAAAAqHAgCEAdCBHN0MTBK"
        "EAEAAAAAAAAAAAAAAAAAAAAqHAgCEAdCBHN0MDFKEAAAAAAAAAAAAQAAAAAAAAAqHAgCEAdCBHN0MTFKEAEAAAAAAAAAAQAAAAAA"
        "AAAqFAgBEAc6AQJCC3AzX2NvbnN0YW50WhwKAXgSFwoVCAESEQoDEgFOCgIIAwoCCAgKAggIYh0KAnAwEhcKFQgBEhEKAxIBTgoC"
        "CAMKAggECgIIBGIdCgJwMRIXChUIARIRCgMSAU4KAggDCgIIBAoCCARiHQoCcDISFwoVCAESEQoDEgFOCgIIAwoCCAQKAggEYh0K"
        "AnAzEhcKFQgBEhEKAxIBTgoCCAMKAggECgIIBEIECgAQEQ=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6gwQKJAoBeAoEc3QwMAoCZW4KAmh3CgR0d28yEgJwMCIFU2xpY2U6AAokCgF4CgRzdDEwCgJlbgoCaHcKBHR3bzISAnAxIgVT"
        "bGljZToACiQKAXgKBHN0MDEKAmVuCgJodwoEdHdvMhICcDIiBVNsaWNlOgAKJAoBeAoEc3QxMQoCZW4KAmh3CgR0d28yEgJwMyIF"
        "U2xpY2U6ABIBZyocCAIQB0IEc3QwMEoQAAAAAAAAAAAAAAAAAAAAACoaCAIQB0ICZW5KEP////////9//////////38qGggCEAdC"
        "Amh3ShACAAAAAAAAAAMAAAAAAAAAKhwIAhAHQgR0d28yShACAAAAAAAAAAIAAAAAAAAAKhwIAhAHQgRzdDEwShABAAAAAAAAAAAA"
        "AAAAAAAAKhwIAhAHQgRzdDAxShAAAAAAAAAAAAEAAAAAAAAAKhwIAhAHQgRzdDExShABAAAAAAAAAAEAAAAAAAAAWhwKAXgSFwoV"
        "CAESEQoDEgFOCgIIAwoCCAgKAggIYh0KAnAwEhcKFQgBEhEKAxIBTgoCCAMKAggECgIIBGIdCgJwMRIXChUIARIRCgMSAU4KAggD"
        "CgIIBAoCCARiHQoCcDISFwoVCAESEQoDEgFOCgIIAwoCCAQKAggEYh0KAnAzEhcKFQgBEhEKAxIBTgoCCAMKAggECgIIBEIECgAQ"
        "EQ=="
    ))


register(Case(
    id='hunt/shape-derived-count-slice-ort-basic-missed-optimization-ef56e04d',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic folding missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/shape-derived-count-slice-ort-basic-missed-optimization-ef56e04d:uncommon|ort:basic|folding|missed-optimization: Shape node 'p3_shape_node' always yields [3] (same for every binding) but ort:basic did not fold it",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
