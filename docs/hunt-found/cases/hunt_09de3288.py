"""hunt/neutral-shape-ops-ort-extended-missed-optimization-09de3288: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqVBwo1CgF4CgJzeAoDeng4EgJ4cRoRbjBfUXVhbnRpemVMaW5lYXIiDlF1YW50aXplTGluZWFyOgAKOgoC"
        "eHEKAnN4CgN6eDgSAnhkGhNuMV9EZXF1YW50aXplTGluZWFyIhBEZXF1YW50aXplTGluZWFyOgAKOQoCbXEKAnN3CgJ6dxICd2Qa"
        "E24yX0RlcXVhbnRpemVMaW5lYXIiEERlcXVhbnRpemVMaW5lYXI6AAogCgJ4ZAoCd2QSAW0aCW4zX01hdE11bCIGTWF0TXVsOgAK"
        "OQoBbQoCc3kKA3p5OBIGeXFfcHJlGhFuNF9RdWFudGl6ZUxpbmVhciIOUXVhbnRpemVMaW5lYXI6AApDCgZ5cV9wcmUSDHlxX3Ry"
        "YW5zcG9zZRoReXFfdHJhbnNwb3NlX25vZGUiCVRyYW5zcG9zZSoNCgRwZXJtQABAAaABBwo+Cgx5cV90cmFuc3Bvc2UKCHlxX3No"
        "YXBlEgp5cV9yZXNoYXBlGg95cV9yZXNoYXBlX25vZGUiB1Jlc2hhcGUKSQoKeXFfcmVzaGFwZQoJeXFfc3RhcnRzCgd5cV9lbmRz"
        "Cgd5cV9heGVzEgh5cV9zbGljZRoNeXFfc2xpY2Vfbm9kZSIFU2xpY2UKNgoIeXFfc2xpY2UKB3lxX29uZXMSCXlxX2V4cGFuZBoO"
        "eXFfZXhwYW5kX25vZGUiBkV4cGFuZAo0Cgl5cV9leHBhbmQSAnlxGg55cV9jb25jYXRfbm9kZSIGQ29uY2F0KgsKBGF4aXMYAKAB"
        "Ago5CgJ5cQoCc3kKA3p5OBIBeRoTbjVfRGVxdWFudGl6ZUxpbmVhciIQRGVxdWFudGl6ZUxpbmVhcjoAEgFnKgwQAUICc3hKBArX"
        "ozwqChADQgN6eDhKAQAqDBABQgJzeUoEzcxMPSoKEANCA3p5OEoBACoMEAFCAnN3SgQK1yM8KgkQA0ICendKAQAqLAgICAQQA0IC"
        "bXFKILL95bqjKGEwYv9DxfHbV9he4rBPLFPyVOMo57XoRtHNKhIIAhAHOgIAAEIIeXFfc2hhcGUqEggBEAc6AQBCCXlxX3N0YXJ0"
        "cyoYCAEQBzoJ//////////9/Qgd5cV9lbmRzKhAIARAHOgEAQgd5cV9heGVzKhEIAhAHOgIBAUIHeXFfb25lc1oUCgF4Eg8KDQgB"
        "EgkKAxIBTgoCCAhiFAoBeRIPCg0IARIJCgMSAU4KAggEQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazrsAwo1CgF4CgJzeAoDeng4EgJ4cRoRbjBfUXVhbnRpemVMaW5lYXIiDlF1YW50aXplTGluZWFyOgAKOgoC"
        "eHEKAnN4CgN6eDgSAnhkGhNuMV9EZXF1YW50aXplTGluZWFyIhBEZXF1YW50aXplTGluZWFyOgAKOQoCbXEKAnN3CgJ6dxICd2Qa"
        "E24yX0RlcXVhbnRpemVMaW5lYXIiEERlcXVhbnRpemVMaW5lYXI6AAogCgJ4ZAoCd2QSAW0aCW4zX01hdE11bCIGTWF0TXVsOgAK"
        "NQoBbQoCc3kKA3p5OBICeXEaEW40X1F1YW50aXplTGluZWFyIg5RdWFudGl6ZUxpbmVhcjoACjkKAnlxCgJzeQoDenk4EgF5GhNu"
        "NV9EZXF1YW50aXplTGluZWFyIhBEZXF1YW50aXplTGluZWFyOgASAWcqDBABQgJzeEoECtejPCoKEANCA3p4OEoBACoMEAFCAnN5"
        "SgTNzEw9KgoQA0IDenk4SgEAKgwQAUICc3dKBArXIzwqCRADQgJ6d0oBACosCAgIBBADQgJtcUogsv3luqMoYTBi/0PF8dtX2F7i"
        "sE8sU/JU4yjntehG0c1aFAoBeBIPCg0IARIJCgMSAU4KAggIYhQKAXkSDwoNCAESCQoDEgFOCgIIBEIECgAQEQ=="
    ))


register(Case(
    id='hunt/neutral-shape-ops-ort-extended-missed-optimization-09de3288',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-shape-ops-ort-extended-missed-optimization-09de3288:uncommon|ort:extended|parity|missed-optimization: ort:extended removed DequantizeLinear 3→1 in 'common' but 3→3 in 'uncommon'; MatMul 1→0 in 'common' but 1→1 in 'uncommon'; QuantizeLinear 2→1 in 'common' but 2→2 in 'uncommon'; nodes after: common 3, uncommon 9; new op types: common ['QLinearMatMul'], uncommon none; kept in 'uncommon': n2_DequantizeLinear, n0_QuantizeLinear, n1_DequantizeLinear after QuantizeLinear n0_QuantizeLinear, n3_MatMul after DequantizeLinear n1_DequantizeLinear, … (6 in all)",
    opset=17,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
