"""``polygraphy:fp16``'s onnxruntime refusals ("Type parameter (T) of Optype (…) bound to different types") meet the
row of the converter slip behind them where the form's ops tell the slips apart (round 23d, triage43's 44 unmatched
findings: 35 matched, 9 left).

onnxruntime names the consuming node, not the value onnxconverter-common left float, so the rules add the op that
writes that value (round 22c's probes rebuilt each converted model by hand: a Window op / ConstantOfShape /
TfIdfVectorizer default float output, row 1339; a block-listed op reading a float initializer with inference disabled,
row 1387; a ``Cast(to=FLOAT)``, row 1295; Clip's Constant ``min``, row 1291; a blocked Max writing the graph output,
row 1297; an If / Loop body, row 1292). Forms whose ops are the same for two slips (``Add`` + ``Constant``: a
``value_floats`` Constant, row 1291, or an initializer that is also a graph output, row 1293) stay unmatched, and so
does ``pattern-ort-bert/embed-layer`` (not reduced to its cause)."""

from __future__ import annotations

import pytest

from passcheck.hunt import documented
from passcheck.signature import Signature


def _words(optype: str, first: str = "float16", second: str = "float") -> str:
    return (
        "output 'y' (binding 0): Fail: [ONNXRuntimeError] : 1 : FAIL : Type Error: Type parameter (T) of Optype "
        f"({optype}) bound to different types (tensor({first}) and tensor({second}) in node ()."
    )


def _row(ops: tuple[str, ...], message: str) -> str | None:
    sig = Signature("polygraphy:fp16", "numeric", "wrong-result", ops, "", "")
    entry = documented.which(sig.key, {"signature": sig.to_json(), "message": message})
    return entry and entry["row"]


@pytest.mark.parametrize(
    ("ops", "optype", "row"),
    [
        (("HannWindow", "Mul"), "Mul", "1339"),
        (("ConstantOfShape", "Mul"), "Mul", "1339"),
        (("Mul", "TfIdfVectorizer"), "Mul", "1339"),
        (("Mul", "RoiAlign"), "RoiAlign", "1387"),
        (("Mul", "ai.onnx.ml::OneHotEncoder"), "Mul", "1387"),
        (("Mul", "Range"), "Mul", "1387"),
        (("Add", "Max", "Neg"), "Add", "1387"),
        (("Add", "Cast", "Gather", "Range", "Shape"), "Add", "1295"),
        (("Cast", "Mul", "Reciprocal"), "Mul", "1295"),
        (("Conv", "Max"), "Max", "1297"),
        (("Clip", "Constant"), "Clip", "1291"),
    ],
)
def test_a_refusal_meets_the_row_its_forms_ops_name(ops, optype, row):
    assert _row(ops, _words(optype)) == row


def test_a_body_refusal_meets_row_1292():
    message = "Graph attribute inferencing failed: " + _words("Mul", "float", "float16").split("FAIL : ", 1)[1]
    assert _row(("If", "Mul", "Neg", "Relu"), message) == "1292"
    assert _row(("Constant", "Identity", "Loop", "Mul", "Relu", "Squeeze"), message) == "1292"


@pytest.mark.parametrize(
    ("ops", "optype"),
    [
        (("Add", "Constant"), "Add"),  # row 1291 (value_floats) or row 1293 (an initializer output): the same ops
        (("Add", "Constant", "Mul", "Relu"), "Mul"),  # row 1289 (a local function's Constant)
        (("Add", "Cast", "Concat", "Div", "Gather", "Range"), "Sub"),  # embed-layer: Cast and Range, another consumer
    ],
)
def test_a_refusal_whose_ops_do_not_tell_the_slip_meets_no_row(ops, optype):
    assert _row(ops, _words(optype)) is None
