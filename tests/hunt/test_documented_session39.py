"""docs/found.md rows a hunt met without a documented.json entry (round 17j's scan: rows written from hunts whose
folders were not kept), now known to the hunt and to triage (docs/recall.md round 18j, M369). Each key below was
printed by a real hunt of the row's base under the row's neighbour (``passcheck hunt --case BASE --pass P
--vary-kind K --budget Nitems --no-compose``), or computed by :meth:`Signature.of` from a real check's finding and
its pair (row 14); each rule's words are the tool's, from a real run."""

from __future__ import annotations

import pytest

from passcheck.hunt import documented
from passcheck.signature import Signature

S02 = "2026-12-02: hunts on every installed pass (written by hand, not by `passcheck triage`)"
S12 = "2026-12-03: 12-minute hunts per pass (written by hand, not by `passcheck triage`)"
INLINER = "onnx:inline-schema-functions"
S14 = "2026-12-03 (session 14): hunts of the passes least hunted (written by hand, not by `passcheck triage`)"

#: (row, section or None, key) as the hunts printed them (docs/recall.md round 18j lists the commands).
SEEN = [
    (
        "6",
        S02,
        "ort:basic|numeric|wrong-result||vary:bind-zero|Fail: FAIL : Non-zero status code returned while running "
        "Reshape node. Name:'…' Status Message: # on",
    ),
    (
        "14",
        S02,
        "onnx:inline-local-functions|numeric|wrong-result|Softmax|node-as-local-function-defaults",
    ),
    (
        "25",
        S12,
        "onnxscript:optimize|validity|invalid-model||vary:attr-keepdims|InferenceError: [ShapeInferenceError] "
        "Inference error(…): (op_type:Squeeze, node name: …): [ShapeInferenceError] Dimension of input # must be # "
        "instead of # (op",
    ),
    ("46", S14, "onnx:infer-shapes-data-prop|annotations|annotation-violated|Cast,Slice|vary:cast-narrow"),
    ("47", S14, "ort:extended|numeric|wrong-result|LayerNormalization|vary:attr-axis"),
    (
        "8",
        S02,
        "ort:all|numeric|wrong-result||vary:shape-one-element|InvalidArgument: INVALID_ARGUMENT : Non-zero status code "
        "returned while running SkipLayerNormalizati",
    ),
    (
        "44",
        S14,
        "onnxscript:optimize-for-ort|validity|invalid-model||vary:shape-leading-one|InferenceError: "
        "[ShapeInferenceError] Inference error(…): (op_type:Concat, node name: …): [ShapeInferenceError] All inputs to "
        "Concat must have same rank. Input ",
    ),
    (
        "52",
        S14,
        "ort:basic|acceptance|rejected||vary:shape-scalar|ONNXRuntimeError: InvalidArgument: … : Invalid model. Node "
        "input '…' is not a graph input, initializer, or output of a previous node.",
    ),
    ("54", S14, "onnxslim:slim|annotations|annotation-violated|ReduceMin,Transpose|vary:transpose-pair"),
    ("491", None, "onnxscript:optimize|annotations|annotation-violated|Reshape|vary:default-fed"),
    ("573", None, "ort-transformers:clip|numeric|wrong-result|Mul|vary:shape-outrank"),
    ("574", None, "ort-transformers:clip|numeric|wrong-result|Mul|vary:default-fed"),
    ("634", None, "ort-quant:quantize-dynamic|numeric|wrong-result|MatMul|vary:default-fed"),
    ("744", None, "ort-quant:quantize-static|numeric|wrong-result|GlobalAveragePool|vary:feed-tiny"),
]


def _sig(key: str) -> Signature:
    head, ops, tail = key.split("|")[:3], key.split("|")[3], key.split("|")[4:]
    return Signature(*head, tuple(ops.split(",")) if ops else (), *tail)


@pytest.mark.parametrize(("row", "section", "key"), SEEN, ids=[r for r, _, _ in SEEN])
def test_a_hunt_signature_of_the_row_is_known_as_that_row(row, section, key):
    sig = _sig(key)
    assert sig.key == key
    entry = documented.which(key, {"signature": sig.to_json(), "case": sig.case_id, "message": "m"})
    assert entry is not None and (entry["row"], entry.get("section")) == (row, section), entry


def _run(*case_globs: str, passes: tuple[str, ...]):
    """The findings of a real ``passcheck run`` of ``case_globs`` under ``passes``, with their records as a hunt
    writes them (the signature of the finding and its message)."""
    from passcheck import api

    for c in api.run(list(case_globs), list(passes)).cells:
        for f in c.findings:
            if f.pass_id in passes:
                sig = Signature.of(f)
                yield f, sig, {"signature": sig.to_json(), "case": sig.case_id, "message": f.message}


def test_the_inliner_rows_are_known_by_the_tools_own_words():
    """Row 119 (an initializer's or an omitted input's type unknown to the schema-function inliner), row 120 (an
    omitted attribute a body references left unbound: a Cast without ``to``), and row 1066 (AffineGrid's branch-local
    value) stays its own row: each from a real run of onnx's inliner."""
    cases = ("optional-input/clip-min-only", "function-body/hannwindow-17.opset-17.int32")
    rows = {}
    for f, sig, rec in _run(*cases, "function-body/affinegrid-20.opset-20.float", passes=(INLINER,)):
        entry = documented.which(sig.key, rec)
        rows.setdefault((f.case.split("/")[1].split(".")[0], f.oracle), set()).add(entry and entry["row"])
    assert rows["clip-min-only", "acceptance"] == {"119"}, rows
    assert rows["hannwindow-17", "validity"] == {"120"}, rows
    # onnxruntime's refusal of the same output ("Constant node: has no data attributes") is past the message's cut
    assert rows["hannwindow-17", "numeric"] == {None}, rows
    assert rows["affinegrid-20", "acceptance"] == {"1066"}, rows


def test_a_fusion_refusing_a_bias_shape_is_its_row_whatever_neighbour_reaches_it():
    """Rows 8 and 44 by their rules: onnxruntime's words about the fused node's gamma / beta (row 8) and
    MultiHeadAttention's bias (row 44), as the hunts of those rows printed them, under another neighbour's key."""
    skip = (
        "the output of ort:all fails to run (binding 0): InvalidArgument: [ONNXRuntimeError] : 2 : INVALID_ARGUMENT "
        ": Non-zero status code returned while running SkipLayerNormalization node. Name:'SkipLayerNormalization' "
        "Status Message: Last dimension of beta and input does not match"
    )
    mha = (
        "the output of onnxscript:optimize-for-ort fails to run (binding 0): InvalidArgument: [ONNXRuntimeError] : 2 "
        ": INVALID_ARGUMENT : Non-zero status code returned while running MultiHeadAttention node. "
        "Name:'node_MultiHeadAttention_5' Status Message: Input 'bias' length is expected to be 2 * hidden_size + hidd…"
    )
    for pass_id, message, row in (("ort:extended", skip, "8"), ("onnxscript:optimize-for-ort", mha, "44")):
        sig = Signature(pass_id, "numeric", "wrong-result", (), "vary:shape-outrank", "InvalidArgument")
        entry = documented.which(sig.key, {"signature": sig.to_json(), "message": message})
        assert entry is not None and entry["row"] == row, (row, entry)
        other = documented.which(sig.key, {"signature": sig.to_json(), "message": "Status Message: something else"})
        assert other is None or other["row"] != row
