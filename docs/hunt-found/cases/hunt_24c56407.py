"""hunt/neutral-elementwise-ort-all-missed-optimization-24c56407: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAk6rgMKOwoBeAoCc2MKAnpwEgVkX3ByZRoTbjBfRGVxdWFudGl6ZUxpbmVhciIQRGVxdWFudGl6ZUxpbmVhcjoACicKBWRfcHJl"
        "CgZkX3plcm8SBWRfYWRkGgpkX2FkZF9ub2RlIgNBZGQKJgoFZF9hZGQKBWRfb25lEgVkX211bBoKZF9tdWxfbm9kZSIDTXVsCk4K"
        "BWRfbXVsEgtkX3JlZHVjZXN1bRoQZF9yZWR1Y2VzdW1fbm9kZSIJUmVkdWNlU3VtKhsKFG5vb3Bfd2l0aF9lbXB0eV9heGVzGAGg"
        "AQIKLgoLZF9yZWR1Y2VzdW0SAWQaC2RfY2FzdF9ub2RlIgRDYXN0KgkKAnRvGAGgAQIKMwoBZAoCc2MKAnpwEgFxGhFuMV9RdWFu"
        "dGl6ZUxpbmVhciIOUXVhbnRpemVMaW5lYXI6ABIBZyoMEAFCAnNjSgTNzEw9KgkQAkICenBKAYAqEBABIgQAAACAQgZkX3plcm8q"
        "DxABIgQAAIA/QgVkX29uZVoUCgF4Eg8KDQgCEgkKAxIBTgoCCAhiFAoBcRIPCg0IAhIJCgMSAU4KAggIQgQKABAT"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAk6tgEKNwoBeAoCc2MKAnpwEgFkGhNuMF9EZXF1YW50aXplTGluZWFyIhBEZXF1YW50aXplTGluZWFyOgAKMwoBZAoCc2MKAnpw"
        "EgFxGhFuMV9RdWFudGl6ZUxpbmVhciIOUXVhbnRpemVMaW5lYXI6ABIBZyoMEAFCAnNjSgTNzEw9KgkQAkICenBKAYBaFAoBeBIP"
        "Cg0IAhIJCgMSAU4KAggIYhQKAXESDwoNCAISCQoDEgFOCgIICEIECgAQEw=="
    ))


register(Case(
    id='hunt/neutral-elementwise-ort-all-missed-optimization-24c56407',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:all parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-elementwise-ort-all-missed-optimization-24c56407:uncommon|ort:all|parity|missed-optimization: ort:all removed DequantizeLinear 1→0 in 'common' but 1→1 in 'uncommon'; QuantizeLinear 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 3; new op types: common ['Identity'], uncommon none; kept in 'uncommon': n0_DequantizeLinear, n1_QuantizeLinear after ReduceSum d_reducesum_node",
    opset=19,
    passes=('ort:all',),
    tags=frozenset({"reduced"}),
))
