"""The gemm-written bases (``cases/gemm_written.py``, M388): every Gemm schema from opset 7 at each transA / transB,
its first form the ops Gemm's definition names (Transpose with ``perm`` written, MatMul, Add); that form triggers
onnxscript's ``MatMulAddToGemm`` rule of its transposes by effect (``passcheck.coverage.onnxscript.triggers``), which no
base's first form did, and the two forms agree under onnxruntime."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.cases import registry
from passcheck.runtime.feeds import synthesize

RULES = {
    "plain": "MatMulAddToGemm",
    "trans-a": "TransAMatMulAddToGemm",
    "trans-b": "TransBMatMulAddToGemm",
    "trans-ab": "TransABMatMulAddToGemm",
}


def test_one_base_per_gemm_schema_and_transposes():
    got = {c.id for c in registry().select(["gemm-written/*"])}
    versions = {
        s.since_version for s in onnx.defs.get_all_schemas_with_history() if s.name == "Gemm" and s.domain == ""
    }
    want = {f"gemm-written/gemm-{v}.{t}" for v in versions if v >= 7 for t in RULES}
    assert got == want, sorted(want ^ got)


@pytest.mark.parametrize("suffix", sorted(RULES))
def test_the_first_form_triggers_its_rule_and_the_forms_agree(suffix):
    from passcheck.coverage.onnxscript import triggers

    case = registry().get(f"gemm-written/gemm-13.{suffix}")
    common, gemm = (f.build() for f in case.forms.values())
    assert [n.op_type for n in gemm.graph.node] == ["Gemm"]
    assert "Gemm" not in {n.op_type for n in common.graph.node}
    assert all(any(a.name == "perm" for a in n.attribute) for n in common.graph.node if n.op_type == "Transpose")
    feeds = synthesize(common, {}, 0)
    outs = []
    for m in (common, gemm):
        onnx.checker.check_model(m, full_check=True)
        outs.append(ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds))
    np.testing.assert_allclose(outs[0][0], outs[1][0], rtol=1e-5, atol=1e-5)
    assert f"onnxscript:rule:{RULES[suffix]}" in triggers(common), sorted(triggers(common))
