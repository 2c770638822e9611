"""``onnxscript:onnx-fusions`` (:mod:`passcheck.passes.onnxscript_onnx_fusions`): onnxscript's
``onnx_fusions.fuse`` run on the IR, only at ai.onnx opset 23 (its source returns without a change elsewhere), its
rules listed in the coverage catalogue under the pass and reproduced by the script call. Judged with the installed
onnxscript and onnxruntime on the library's RMS normalization base."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.cases import registry
from passcheck.passes import get_pass
from passcheck.repro.tools import tool_call
from tests.passes._helpers import script_apply

PASS = "onnxscript:onnx-fusions"


def _rms(opset: int | None = None):
    model = next(c for c in registry() if c.id == "pattern-onnxscript-onnx-fusions/rms-norm").build("common")
    if opset is not None:
        next(o for o in model.opset_import if o.domain in ("", "ai.onnx")).version = opset
    return model


def _run(model, x):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


@pytest.fixture(scope="module")
def adapter():
    a = get_pass(PASS)
    if why := a.unavailable_reason():
        pytest.skip(why)
    return a


def test_the_pass_runs_at_opset_23_only(adapter, tmp_path):
    out = adapter.run(_rms(18), tmp_path)
    assert out.status == "unavailable" and "opset 23" in out.error, out
    out = adapter.run(_rms(), tmp_path)
    assert out.status == "changed", out
    assert [n.op_type for n in out.model.graph.node] == ["RMSNormalization"]


def test_the_fused_model_computes_the_same_values(adapter, tmp_path):
    model = _rms()
    fused = adapter.run(model, tmp_path).model
    onnx.checker.check_model(fused, full_check=True)
    x = np.random.default_rng(0).standard_normal((3, 3, 8)).astype(np.float32)
    np.testing.assert_allclose(_run(fused, x), _run(model, x), rtol=1e-5, atol=1e-6)


def test_the_catalogue_lists_the_fusion_rules_under_the_pass(adapter):
    from passcheck.coverage import onnxscript as cov

    listed = {name for name, _, passes, _ in cov._rules() if PASS in passes}
    assert {"RmsNormFusion1", "RmsNormFusion2", "RotaryEmbedding23"} <= listed, listed
    fired = cov.triggers(_rms())
    assert "onnxscript:rule:RmsNormFusion1" in fired, sorted(fired)
    assert fired["onnxscript:rule:RmsNormFusion1"].startswith(PASS), fired["onnxscript:rule:RmsNormFusion1"]


def test_the_script_call_gives_the_adapters_model(adapter, tmp_path):
    model = _rms()
    ours = script_apply(tool_call(PASS))(onnx.ModelProto.FromString(model.SerializeToString()))
    theirs = adapter.apply(onnx.ModelProto.FromString(model.SerializeToString()), tmp_path)
    assert ours.graph.SerializeToString(deterministic=True) == theirs.graph.SerializeToString(deterministic=True)
    assert [n.op_type for n in ours.graph.node] == ["RMSNormalization"]
