"""hunt/neutral-elementwise-ort-extended-missed-optimization-ff2bf051: a minimal pair showing one finding (common: bytes, uncommon: bytes)."""

import base64

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases import Case, Form, register


def build_uncommon():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqnBwoiCgF4CgF3EgVtX3ByZRoJbjBfTWF0TXVsIgZNYXRNdWw6AAonCgVtX3ByZQoGbV96ZXJvEgVtX2Fk"
        "ZBoKbV9hZGRfbm9kZSIDQWRkCiYKBW1fYWRkCgVtX29uZRIFbV9tdWwaCm1fbXVsX25vZGUiA011bApOCgVtX211bBILbV9yZWR1"
        "Y2VzdW0aEG1fcmVkdWNlc3VtX25vZGUiCVJlZHVjZVN1bSobChRub29wX3dpdGhfZW1wdHlfYXhlcxgBoAECCi4KC21fcmVkdWNl"
        "c3VtEgFtGgttX2Nhc3Rfbm9kZSIEQ2FzdCoJCgJ0bxgBoAECChkKAWIKAW0SAm1iGgZuMV9BZGQiA0FkZDoAChwKAm1iCgRza2lw"
        "EgFzGgZuMl9BZGQiA0FkZDoACmkKAXMKBWdhbW1hCgRiZXRhEgF5GhVuM19MYXllck5vcm1hbGl6YXRpb24iEkxheWVyTm9ybWFs"
        "aXphdGlvbioUCgRheGlzGP///////////wGgAQIqEQoHZXBzaWxvbhWsxSc3oAEBOgASAWcqjAIICAgIEAFCAXdKgAJGUIm9cOYZ"
        "vs+Qdz9NiHm/+z3vPuG/jL8UJi0+5yQ7vhyjkL8PMXM/ccYQvlxtDr5DNEo/fVHhvl7flT+Hd/Q/biqLP+iQSb/dvnC/aJBLv7ey"
        "FsDlzO2928WAv9lCcr4W5mC+9x1Qv751IL9OoZk+Ti5lvh4huT4ACAlACMyAv4S5Wb/yzNo9onZRvlEX3b4Eark9UjCKPoT+Dr9/"
        "CIa/BAVOv8Hl3r+xRli+gnUTwKOECT8asoS9zOh8OxOe1r+zA+W/JTSiP8mgw79t94M/54sRPwdUFj+MtOm8X7OoPpltsrvuoAc+"
        "zOHHvpk93L2eRso+a4Qev2U7eT/RY38/KikICBABQgFiSiDcrTk/fpV0v26BAsAk9Dg+wRXjP7QpJT8seU2+agAMPiotCAgQAUIF"
        "Z2FtbWFKIKkTej9w26U/uVlkPwG7OD+VHKA/fhSMP7x2nD9fHKc/KiwICBABQgRiZXRhSiBsxuA9zqBpP/w8vb8rrMQ9hCLiv9VR"
        "575WIpk+3EdsvyoQEAEiBAAAAIBCBm1femVybyoPEAEiBAAAgD9CBW1fb25lWhgKAXgSEwoRCAESDQoDEgFOCgIIBAoCCAhaGwoE"
        "c2tpcBITChEIARINCgMSAU4KAggECgIICGIYCgF5EhMKEQgBEg0KAxIBTgoCCAQKAggIQgQKABAR"
    ))


def build_common():
    """The model as serialized bytes (too large or too intricate to spell with onnx.helper)."""
    return onnx.ModelProto.FromString(base64.b64decode(
        "CAgSCXBhc3NjaGVjazqvBQoeCgF4CgF3EgFtGgluMF9NYXRNdWwiBk1hdE11bDoAChkKAWIKAW0SAm1iGgZuMV9BZGQiA0FkZDoA"
        "ChwKAm1iCgRza2lwEgFzGgZuMl9BZGQiA0FkZDoACmkKAXMKBWdhbW1hCgRiZXRhEgF5GhVuM19MYXllck5vcm1hbGl6YXRpb24i"
        "EkxheWVyTm9ybWFsaXphdGlvbioUCgRheGlzGP///////////wGgAQIqEQoHZXBzaWxvbhWsxSc3oAEBOgASAWcqjAIICAgIEAFC"
        "AXdKgAJGUIm9cOYZvs+Qdz9NiHm/+z3vPuG/jL8UJi0+5yQ7vhyjkL8PMXM/ccYQvlxtDr5DNEo/fVHhvl7flT+Hd/Q/biqLP+iQ"
        "Sb/dvnC/aJBLv7eyFsDlzO2928WAv9lCcr4W5mC+9x1Qv751IL9OoZk+Ti5lvh4huT4ACAlACMyAv4S5Wb/yzNo9onZRvlEX3b4E"
        "ark9UjCKPoT+Dr9/CIa/BAVOv8Hl3r+xRli+gnUTwKOECT8asoS9zOh8OxOe1r+zA+W/JTSiP8mgw79t94M/54sRPwdUFj+MtOm8"
        "X7OoPpltsrvuoAc+zOHHvpk93L2eRso+a4Qev2U7eT/RY38/KikICBABQgFiSiDcrTk/fpV0v26BAsAk9Dg+wRXjP7QpJT8seU2+"
        "agAMPiotCAgQAUIFZ2FtbWFKIKkTej9w26U/uVlkPwG7OD+VHKA/fhSMP7x2nD9fHKc/KiwICBABQgRiZXRhSiBsxuA9zqBpP/w8"
        "vb8rrMQ9hCLiv9VR575WIpk+3Edsv1oYCgF4EhMKEQgBEg0KAxIBTgoCCAQKAggIWhsKBHNraXASEwoRCAESDQoDEgFOCgIIBAoC"
        "CAhiGAoBeRITChEIARINCgMSAU4KAggECgIICEIECgAQEQ=="
    ))


register(Case(
    id='hunt/neutral-elementwise-ort-extended-missed-optimization-ff2bf051',
    forms={"common": Form(build_common), 'uncommon': Form(build_uncommon, 'the form showing ort:extended parity missed-optimization')},
    doc="Reduced by passcheck hunt from finding hunt/neutral-elementwise-ort-extended-missed-optimization-ff2bf051:uncommon|ort:extended|parity|missed-optimization: ort:extended removed Add 2→0 in 'common' but 3→1 in 'uncommon'; nodes after: common 2, uncommon 4; kept in 'uncommon': n1_Add",
    opset=17,
    passes=('ort:extended',),
    tags=frozenset({"reduced"}),
))
