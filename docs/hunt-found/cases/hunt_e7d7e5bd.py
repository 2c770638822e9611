"""hunt/float64-compute-ort-extended-missed-optimization-e7d7e5bd: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6igQKKgoCbWISBm1iX2Y2NBoLbWJfZjY0X2Nhc3QiBENhc3QqCQoCdG8YC6ABAgowCgRza2lwEghza2lwX2Y2NBoNc2tpcF9m"
        "NjRfY2FzdCIEQ2FzdCoJCgJ0bxgLoAECCiQKBm1iX2Y2NAoIc2tpcF9mNjQSAXMaBm4yX0FkZCIDQWRkOgAKbQoBcwoFZ2FtbWEK"
        "BGJldGESBXlfZjY0GhVuM19MYXllck5vcm1hbGl6YXRpb24iEkxheWVyTm9ybWFsaXphdGlvbioUCgRheGlzGP///////////wGg"
        "AQIqEQoHZXBzaWxvbhWsxSc3oAEBOgAKIwoFeV9mNjQSAXkaBnlfY2FzdCIEQ2FzdCoJCgJ0bxgBoAECEgFnKk0ICBALQgVnYW1t"
        "YUpAAAAAIHVC7z8AAAAAbrv0PwAAACA3i+w/AAAAIGAX5z8AAACgkgP0PwAAAMCPgvE/AAAAgNeO8z8AAADgi+P0PypMCAgQC0IE"
        "YmV0YUpAAAAAgM0YvD8AAADAGTTtPwAAAICfp/e/AAAAYIWVuD8AAACAUET8vwAAAKA66ty/AAAAwEok0z8AAACA+4jtv1oZCgJt"
        "YhITChEIARINCgMSAU4KAggECgIICFobCgRza2lwEhMKEQgBEg0KAxIBTgoCCAQKAggIYhgKAXkSEwoRCAESDQoDEgFOCgIIBAoC"
        "CAhCBAoAEBE="
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAg6uwIKHAoCbWIKBHNraXASAXMaBm4yX0FkZCIDQWRkOgAKaQoBcwoFZ2FtbWEKBGJldGESAXkaFW4zX0xheWVyTm9ybWFsaXph"
        "dGlvbiISTGF5ZXJOb3JtYWxpemF0aW9uKhQKBGF4aXMY////////////AaABAioRCgdlcHNpbG9uFazFJzegAQE6ABIBZyotCAgQ"
        "AUIFZ2FtbWFKIKkTej9w26U/uVlkPwG7OD+VHKA/fhSMP7x2nD9fHKc/KiwICBABQgRiZXRhSiBsxuA9zqBpP/w8vb8rrMQ9hCLi"
        "v9VR575WIpk+3Edsv1oZCgJtYhITChEIARINCgMSAU4KAggECgIICFobCgRza2lwEhMKEQgBEg0KAxIBTgoCCAQKAggIYhgKAXkS"
        "EwoRCAESDQoDEgFOCgIIBAoCCAhCBAoAEBE="
    ))


register(Case(
    id='hunt/float64-compute-ort-extended-missed-optimization-e7d7e5bd',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/float64-compute-ort-extended-missed-optimization-e7d7e5bd:uncommon|ort:extended|parity|missed-optimization: ort:extended removed Add 1→0 in 'common' but 1→1 in 'uncommon'; LayerNormalization 1→0 in 'common' but 1→1 in 'uncommon'; nodes after: common 1, uncommon 5; new op types: common ['com.microsoft::SkipLayerNormalization'], uncommon none; kept in 'uncommon': n2_Add after Cast mb_f64_cast, n3_LayerNormalization after Add n2_Add",
    opset=17,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
