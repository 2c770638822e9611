"""hunt/shape-derived-count-slice-ort-basic-missed-optimization-dba2249f: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6igUKJAoBeAoEc3QwMAoCZW4KAmh3CgR0d28yEgJwMCIFU2xpY2U6AAokCgF4CgRzdDEwCgJlbgoCaHcKBHR3bzISAnAxIgVT"
        "bGljZToACiQKAXgKBHN0MDEKAmVuCgJodwoEdHdvMhICcDIiBVNsaWNlOgAKTwoBeBIIcDNfc2hhcGUaDXAzX3NoYXBlX25vZGUi"
        "BVNoYXBlKhMKA2VuZBj+//////////8BoAECKhUKBXN0YXJ0GP3//////////wGgAQIKRwoLcDNfY29uc3RhbnQKCHAzX3NoYXBl"
        "EglwM19jb25jYXQaDnAzX2NvbmNhdF9ub2RlIgZDb25jYXQqCwoEYXhpcxgAoAECCisKAXgKBHN0MTEKAmVuCglwM19jb25jYXQK"
        "BHR3bzISAnAzIgVTbGljZToACisKAnAwCgJwMQoCcDIKAnAzEgJjNCIGQ29uY2F0KgsKBGF4aXMYAaABAjoAEgFnKhwIAhAHQgRz"
        "dDAwShAAAAAAAAAAAAAAAAAAAAAAKhoIAhAHQgJlbkoQ/////////3//////////fyoaCAIQB0ICaHdKEAIAAAAAAAAAAwAAAAAA"
        "AAAqHAgCEAdCBHR3bzJKEAIAAAAAAAAAAgAAAAAAAAAqHAgCEAdCBHN0MTBKEAEAAAAAAAAAAAAAAAAAAAAqHAgCEAdCBHN0MDFK"
        "EAAAAAAAAAAAAQAAAAAAAAAqHAgCEAdCBHN0MTFKEAEAAAAAAAAAAQAAAAAAAAAqFAgBEAc6AQJCC3AzX2NvbnN0YW50WhwKAXgS"
        "FwoVCAESEQoDEgFOCgIIAwoCCAgKAggIYh0KAmM0EhcKFQgBEhEKAxIBTgoCCAwKAggECgIIBEIECgAQEQ=="
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
    id='hunt/shape-derived-count-slice-ort-basic-missed-optimization-dba2249f',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:basic parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/shape-derived-count-slice-ort-basic-missed-optimization-dba2249f:uncommon|ort:basic|parity|missed-optimization: ort:basic removed Concat 1→0 in 'common' but 2→2 in 'uncommon'; Slice 4→0 in 'common' but 4→4 in 'uncommon'; nodes after: common 2, uncommon 7; new op types: common ['Gather', 'SpaceToDepth'], uncommon none; kept in 'uncommon': #0, #1, #2, p3_concat_node, … (6 in all)",
    opset=17,
    passes=('ort:basic',),
    tags=frozenset({"reduced"}),
))
