"""A reproducer calls onnx_ir's passes, onnx's inliner and onnxruntime's transformer optimizer as their
adapters do (:func:`passcheck.repro.tools.tool_call`): the script's ``apply`` gives the adapter's model."""

from __future__ import annotations

import onnx
import pytest

from passcheck.passes import get_pass
from passcheck.repro.tools import package, tool_call
from tests.passes._helpers import script_apply
from tests.passes.test_onnx_inliner import MODEL as FUNCTION_MODEL
from tests.passes.test_onnx_ir_common import MODEL as IR_MODEL
from tests.passes.test_onnxscript_rules import _matmul_add
from tests.passes.test_ort_transformers import GELU as FUSION_MODEL
from tests.passes.test_ort_weight_quant import MODEL as WEIGHT_MODEL

CASES = [
    ("onnx-ir:common-subexpression-elimination", IR_MODEL),
    ("onnx-ir:identity-elimination", IR_MODEL),
    ("onnx:inline-local-functions", FUNCTION_MODEL),
    ("onnx:inline-schema-functions", FUNCTION_MODEL),
    ("ort-transformers:bert", FUSION_MODEL),
    ("ort-transformers:unet", FUSION_MODEL),  # run with its kernel-less FusionOptions flags off
    ("onnxscript:rule-matmul-add-to-gemm", _matmul_add()),
    ("onnxscript:rewrite-opt-in", _matmul_add()),
    ("ort-quant:matmul-nbits", WEIGHT_MODEL),
    ("ort-quant:matmul-nbits-qdq", WEIGHT_MODEL),
    ("ort-quant:matmul-bnb4", WEIGHT_MODEL),
    ("ort-quant:qnn-preprocess", FUSION_MODEL),
]


@pytest.mark.parametrize(("pass_id", "model"), CASES)
def test_the_script_call_gives_the_adapters_model(pass_id, model, tmp_path):
    call = tool_call(pass_id)
    assert call is not None, pass_id
    given = onnx.ModelProto.FromString(model.SerializeToString())
    ours = script_apply(call)(given)
    assert given.SerializeToString() == model.SerializeToString()  # the script compares the output with its input
    theirs = get_pass(pass_id).apply(onnx.ModelProto.FromString(model.SerializeToString()), tmp_path)
    assert ours.graph.SerializeToString(deterministic=True) == theirs.graph.SerializeToString(deterministic=True)
    assert ours.graph.SerializeToString() != model.graph.SerializeToString()  # the pass did something


def test_unknown_variants_have_no_call_and_packages_are_named():
    assert tool_call("onnx-ir:no-such-pass") is None and tool_call("ort-transformers:t5") is None
    assert tool_call("onnxscript:rule-no-such") is None
    assert package("onnx-ir:name-fix") == "onnx-ir" and package("ort-transformers:bert") == "onnxruntime"
    assert package("onnx:inline-local-functions") == "onnx"
