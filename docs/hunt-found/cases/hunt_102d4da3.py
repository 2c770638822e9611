"""hunt/explicit-broadcast-ort-all-missed-optimization-102d4da3: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAoSCXBhc3NjaGVjazqRBQpVCgJ3NAoCczQSAndkGhNuMF9EZXF1YW50aXplTGluZWFyIhBEZXF1YW50aXplTGluZWFyKgsKBGF4"
        "aXMYAKABAioRCgpibG9ja19zaXplGBCgAQI6AAofCgF4CgJ3ZBIBbRoJbjFfTWF0TXVsIgZNYXRNdWw6AApNCgViaWFzOAoVYmlh"
        "czhfdW5zcXVlZXplZF9heGVzEhBiaWFzOF91bnNxdWVlemVkGhBuMl9BZGRfdW5zcXVlZXplIglVbnNxdWVlemUKJwoBbQoQYmlh"
        "czhfdW5zcXVlZXplZBIBeRoGbjJfQWRkIgNBZGQ6ABIBZyrJAQggCAgQFSq8AfkBbgLCAagBwQG8AUhmsAGQAckBjgFbb09x7gGm"
        "AXdeWacBX+4BhAGDAe8BcWueASrkASe4AQsoDYgB/QH6AUtQKGFt8wHOAWoidgEykQF7Ukx0DgS+AdsB4wHfAWzuAfkB1wElqwGO"
        "ATGZAQwAVPUBoAFmKma3AVmmAb8B4wGKARTmARhW0gFrf2NeY9QBW/QBjwEpNOEBH40BkgGUAa8B0gElrgHsARZTU2sN3AF1rwFO"
        "UBu4Af4BdOYBQgJ3NCpMCAIICBABQgJzNEpA+PUrPbWX1jwrqDo9YaA9PZ7NDT36NyQ9ykaKPO6RXzxPGDY9q1YKPdAkVDwmuZ48"
        "+NXpPJlstjw4f8M82jG+PCotCAgQAUIFYmlhczhKIN1Nk7+3SAXAKHk3vtwrGz6R+5++C0lyP3QBgD5iTqW9Kh8IAhAHOgIAAUIV"
        "YmlhczhfdW5zcXVlZXplZF9heGVzWhgKAXgSEwoRCAESDQoDEgFOCgIIBAoCCCBiGAoBeRITChEIARINCgMSAU4KAggECgIICEIE"
        "CgAQFQ=="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAoSCXBhc3NjaGVjazqWBApVCgJ3NAoCczQSAndkGhNuMF9EZXF1YW50aXplTGluZWFyIhBEZXF1YW50aXplTGluZWFyKgsKBGF4"
        "aXMYAKABAioRCgpibG9ja19zaXplGBCgAQI6AAofCgF4CgJ3ZBIBbRoJbjFfTWF0TXVsIgZNYXRNdWw6AAocCgFtCgViaWFzOBIB"
        "eRoGbjJfQWRkIgNBZGQ6ABIBZyrJAQggCAgQFSq8AfkBbgLCAagBwQG8AUhmsAGQAckBjgFbb09x7gGmAXdeWacBX+4BhAGDAe8B"
        "cWueASrkASe4AQsoDYgB/QH6AUtQKGFt8wHOAWoidgEykQF7Ukx0DgS+AdsB4wHfAWzuAfkB1wElqwGOATGZAQwAVPUBoAFmKma3"
        "AVmmAb8B4wGKARTmARhW0gFrf2NeY9QBW/QBjwEpNOEBH40BkgGUAa8B0gElrgHsARZTU2sN3AF1rwFOUBu4Af4BdOYBQgJ3NCpM"
        "CAIICBABQgJzNEpA+PUrPbWX1jwrqDo9YaA9PZ7NDT36NyQ9ykaKPO6RXzxPGDY9q1YKPdAkVDwmuZ48+NXpPJlstjw4f8M82jG+"
        "PCotCAgQAUIFYmlhczhKIN1Nk7+3SAXAKHk3vtwrGz6R+5++C0lyP3QBgD5iTqW9WhgKAXgSEwoRCAESDQoDEgFOCgIIBAoCCCBi"
        "GAoBeRITChEIARINCgMSAU4KAggECgIICEIECgAQFQ=="
    ))


register(Case(
    id='hunt/explicit-broadcast-ort-all-missed-optimization-102d4da3',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/explicit-broadcast-ort-all-missed-optimization-102d4da3:uncommon|ort:all|parity|missed-optimization: ort:all removed Add 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 2; kept in 'uncommon': n2_Add after com.microsoft::MatMulNBits n1_MatMul",
    opset=21,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
    rtol=0.05,
    atol=0.05,
))
