"""hunt/parameter-leading-ones-ort-all-missed-optimization-3847bb0a: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazq9AgoaCgF4Cgt0aHJlZV9yYW5rMhIBYyIDUG93OgAKEwoBYwoEY29lZhIBayIDTXVsOgAKEAoBeAoBaxIB"
        "aSIDQWRkOgAKEwoBaQoEczJwaRIBaiIDTXVsOgAKDgoBahIBdCIEVGFuaDoAChIKAXQKA29uZRIBbyIDQWRkOgAKEwoBeAoEaGFs"
        "ZhIBaCIDTXVsOgAKEQoBaAoBbxICZ2wiA011bDoACg4KAmdsEgF5IgNOZWc6ABIBZyoNEAFCA29uZUoEAACAPyoOEAFCBGhhbGZK"
        "BAAAAD8qDhABQgRjb2VmSgQTJzc9Kg4QAUIEczJwaUoEKkJMPyoZCAEIARABQgt0aHJlZV9yYW5rMkoEAABAQFoUCgF4Eg8KDQgB"
        "EgkKAxIBTgoCCAhiFAoBeRIPCg0IARIJCgMSAU4KAggIQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqtAgoUCgF4CgV0aHJlZRIBYyIDUG93OgAKEwoBYwoEY29lZhIBayIDTXVsOgAKEAoBeAoBaxIBaSIDQWRk"
        "OgAKEwoBaQoEczJwaRIBaiIDTXVsOgAKDgoBahIBdCIEVGFuaDoAChIKAXQKA29uZRIBbyIDQWRkOgAKEwoBeAoEaGFsZhIBaCID"
        "TXVsOgAKEQoBaAoBbxICZ2wiA011bDoACg4KAmdsEgF5IgNOZWc6ABIBZyoNEAFCA29uZUoEAACAPyoOEAFCBGhhbGZKBAAAAD8q"
        "DxABQgV0aHJlZUoEAABAQCoOEAFCBGNvZWZKBBMnNz0qDhABQgRzMnBpSgQqQkw/WhQKAXgSDwoNCAESCQoDEgFOCgIICGIUCgF5"
        "Eg8KDQgBEgkKAxIBTgoCCAhCBAoAEBE="
    ))


register(Case(
    id='hunt/parameter-leading-ones-ort-all-missed-optimization-3847bb0a',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/parameter-leading-ones-ort-all-missed-optimization-3847bb0a:uncommon|ort:all|parity|missed-optimization: ort:all removed Add 2→0 in 'common' but 2→2 in 'uncommon'; Mul 4→0 in 'common' but 4→4 in 'uncommon'; Pow 1→0 in 'common' but 1→1 in 'uncommon'; Tanh 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 2, uncommon 9; new op types: common ['com.microsoft::FastGelu'], uncommon none; kept in 'uncommon': #0, #1 after Pow #0, #2, #3 after Add #2, … (8 in all)",
    opset=17,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
