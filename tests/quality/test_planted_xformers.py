"""A fusion that emits com.microsoft RotaryEmbedding with the wrong layout flag is caught on the
rotary bases (numeric oracle, real onnxruntime sessions of onnxscript's real optimize_for_ort
output) and by no base that existed before them."""

from __future__ import annotations

import pytest

from passcheck._versions import tool_version
from passcheck.cases import registry
from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

from . import planted_xformers as planted


def _findings(case_id: str, fn):
    pid = f"planted:{fn.__name__}"
    register_pass(FunctionAdapter(pid, fn, folds_constants=True))
    try:
        cells = evaluate(Subject.from_case(registry().get(case_id), tool_version("onnx")), [pid], check_input=False)
    finally:
        unregister_pass(pid)
    return [f for c in cells for f in c.findings]


@pytest.mark.parametrize("case_id", ["fusion-rotary/llama", "fusion-rotary/partial"])
def test_wrong_rotary_layout_is_caught_on_the_rotary_bases(case_id):
    wrong = {f.form for f in _findings(case_id, planted.rope_interleaved) if f.oracle == "numeric"}
    assert "common" in wrong


@pytest.mark.parametrize(
    "case_id", ["fusion-attention/bert-block", "pattern-onnxscript-ort/rms-normalization", "fusion-sdpa/kv-cache"]
)
def test_wrong_rotary_layout_is_invisible_without_a_rotary_base(case_id):
    assert not [f for f in _findings(case_id, planted.rope_interleaved) if f.oracle == "numeric"]
