"""hunt/all-empty-optional-inputs-ort-extended-missed-optimization-60bbb526: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAo6ywMKVwoCdzQKAnM0CgASAndkGhNuMF9EZXF1YW50aXplTGluZWFyIhBEZXF1YW50aXplTGluZWFyKgsKBGF4aXMYAKABAioR"
        "CgpibG9ja19zaXplGBCgAQI6AAofCgF4CgJ3ZBIBbRoJbjFfTWF0TXVsIgZNYXRNdWw6ABIBZyrJAQggCAgQFSq8AfkBbgLCAagB"
        "wQG8AUhmsAGQAckBjgFbb09x7gGmAXdeWacBX+4BhAGDAe8BcWueASrkASe4AQsoDYgB/QH6AUtQKGFt8wHOAWoidgEykQF7Ukx0"
        "DgS+AdsB4wHfAWzuAfkB1wElqwGOATGZAQwAVPUBoAFmKma3AVmmAb8B4wGKARTmARhW0gFrf2NeY9QBW/QBjwEpNOEBH40BkgGU"
        "Aa8B0gElrgHsARZTU2sN3AF1rwFOUBu4Af4BdOYBQgJ3NCpMCAIICBABQgJzNEpA+PUrPbWX1jwrqDo9YaA9PZ7NDT36NyQ9ykaK"
        "PO6RXzxPGDY9q1YKPdAkVDwmuZ48+NXpPJlstjw4f8M82jG+PFoYCgF4EhMKEQgBEg0KAxIBTgoCCAQKAgggYhgKAW0SEwoRCAES"
        "DQoDEgFOCgIIBAoCCAhCBAoAEBU="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAo6yQMKVQoCdzQKAnM0EgJ3ZBoTbjBfRGVxdWFudGl6ZUxpbmVhciIQRGVxdWFudGl6ZUxpbmVhcioLCgRheGlzGACgAQIqEQoK"
        "YmxvY2tfc2l6ZRgQoAECOgAKHwoBeAoCd2QSAW0aCW4xX01hdE11bCIGTWF0TXVsOgASAWcqyQEIIAgIEBUqvAH5AW4CwgGoAcEB"
        "vAFIZrABkAHJAY4BW29Pce4BpgF3XlmnAV/uAYQBgwHvAXFrngEq5AEnuAELKA2IAf0B+gFLUChhbfMBzgFqInYBMpEBe1JMdA4E"
        "vgHbAeMB3wFs7gH5AdcBJasBjgExmQEMAFT1AaABZipmtwFZpgG/AeMBigEU5gEYVtIBa39jXmPUAVv0AY8BKTThAR+NAZIBlAGv"
        "AdIBJa4B7AEWU1NrDdwBda8BTlAbuAH+AXTmAUICdzQqTAgCCAgQAUICczRKQPj1Kz21l9Y8K6g6PWGgPT2ezQ09+jckPcpGijzu"
        "kV88Txg2PatWCj3QJFQ8JrmePPjV6TyZbLY8OH/DPNoxvjxaGAoBeBITChEIARINCgMSAU4KAggECgIIIGIYCgFtEhMKEQgBEg0K"
        "AxIBTgoCCAQKAggIQgQKABAV"
    ))


register(Case(
    id='hunt/all-empty-optional-inputs-ort-extended-missed-optimization-60bbb526',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/all-empty-optional-inputs-ort-extended-missed-optimization-60bbb526:uncommon|ort:extended|parity|missed-optimization: ort:extended removed DequantizeLinear 1→0 in 'common' but 1→1 in 'uncommon'; MatMul 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 2; new op types: common ['com.microsoft::MatMulNBits'], uncommon none; kept in 'uncommon': n0_DequantizeLinear, n1_MatMul",
    opset=21,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
    rtol=0.05,
    atol=0.05,
))
