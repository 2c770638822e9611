"""A model onnxruntime saved at ``extended``/``all`` is judged as the onnxruntime model it is: its own
ops (``SimplifiedLayerNormalization`` in the ai.onnx domain, ``com.microsoft::*``) are not an
``invalid-model`` finding; the rest of the graph still is judged by the checker (issue 31)."""

from __future__ import annotations

import json

import onnx
import onnx.parser
import pytest

from passcheck.cli import main
from passcheck.oracles import ort_own_ops, validity
from passcheck.oracles._context import FormRun
from passcheck.passes import PassOutcome

RMS = """<ir_version: 8, opset_import: ["" : 18]>
rms (float[2,8] x) => (float[2,8] y) {
  two = Constant<value=float {2.0}>()
  eps = Constant<value=float {1e-5}>()
  ax = Constant<value=int64[1] {-1}>()
  g = Constant<value=float[8] {1,2,3,4,5,6,7,8}>()
  p = Pow(x, two)
  v = ReduceMean<keepdims=1>(p, ax)
  ve = Add(v, eps)
  s = Sqrt(ve)
  n = Div(x, s)
  y = Mul(g, n)
}"""


def test_check_of_a_model_ort_fuses_into_its_own_ops_has_no_invalid_model_finding(tmp_path, capsys):
    path = tmp_path / "rms.onnx"
    onnx.save(onnx.parser.parse_model(RMS), path)
    main(["check", str(path), "--pass", "ort:extended", "--pass", "ort:all", "--json", str(tmp_path / "r.json"), "-q"])
    cells = [r for r in json.loads((tmp_path / "r.json").read_text())["results"] if r.get("type") == "cell"]
    saved = [c for c in cells if c["pass_id"].startswith("ort:")]
    assert saved and all("SimplifiedLayerNormalization" in str(c["ops_after"]) for c in saved)  # the fusion happened
    assert not [f["id"] for c in cells for f in c["findings"] if f["kind"] == "invalid-model"]
    assert all("ai.onnx::SimplifiedLayerNormalization" in c["notes"]["validity"] for c in saved)


def _run(pass_id: str, output: onnx.ModelProto) -> FormRun:
    model = onnx.parser.parse_model(RMS)
    return FormRun("c", "f", pass_id, model, PassOutcome(pass_id, "changed", output), [{}], [], [])


def _fused(extra: str = "") -> onnx.ModelProto:
    return onnx.parser.parse_model(f"""<ir_version: 8, opset_import: ["" : 18, "com.microsoft" : 1]>
fused (float[2,8] x) => (float[2,8] y) {{
  g = Constant<value=float[8] {{1,2,3,4,5,6,7,8}}>()
  y = SimplifiedLayerNormalization<axis=-1, epsilon=1e-5>(x, g)
  {extra}
}}""")


def test_ort_own_ops_pass_but_the_rest_of_the_graph_is_still_checked():
    assert validity.check(_run("ort:extended", _fused())) == []
    broken = validity.check(_run("ort:extended", _fused("z = Relu<alpha=1.0>(x)")))  # Relu has no attribute alpha
    assert [f.kind for f in broken] == ["invalid-model"]
    assert "Relu" in broken[0].details["error"] and "SimplifiedLayerNormalization" not in broken[0].details["error"]
    assert broken[0].details["onnxruntime_ops"] == ["ai.onnx::SimplifiedLayerNormalization"]


def test_the_same_op_written_by_another_tool_is_invalid():
    found = validity.check(_run("cmd:tool {in} {out}", _fused()))
    assert [f.kind for f in found] == ["invalid-model"] and "SimplifiedLayerNormalization" in found[0].message


def test_onnxscript_optimize_for_ort_output_is_judged_as_an_onnxruntime_model():
    assert validity.check(_run("onnxscript:optimize-for-ort", _fused())) == []
    broken = validity.check(_run("onnxscript:optimize-for-ort", _fused("z = Relu<alpha=1.0>(x)")))
    assert [f.kind for f in broken] == ["invalid-model"] and "Relu" in broken[0].details["error"]


#: Skip-RMS normalization in double: onnxscript 0.7.2's optimize_for_ort fuses the RMS part into
#: ai.onnx::SimplifiedLayerNormalization and leaves the Add (its skip fusion takes float types only).
SKIP_RMS_DOUBLE = """<ir_version: 8, opset_import: ["" : 18]>
g (double[N,4,8] x0, double[N,4,8] skip) => (double[N,4,8] y)
  <double two = {2}, double eps = {1e-6}, int64[1] ax = {-1}, double[8] g = {0.5,0.6,0.7,0.9,1.1,1.2,1.4,1.5}> {
  x = Add (x0, skip)
  p = Pow (x, two)
  m = ReduceMean <keepdims = 1, noop_with_empty_axes = 0> (p, ax)
  a = Add (m, eps)
  r = Sqrt (a)
  rc = Reciprocal (r)
  n = Mul (x, rc)
  y = Mul (n, g)
}"""


def test_check_with_onnxscript_optimize_for_ort_has_no_invalid_model_for_ort_own_ops(tmp_path):
    path = tmp_path / "skip_rms.onnx"
    onnx.save(onnx.parser.parse_model(SKIP_RMS_DOUBLE), path)
    main(["check", str(path), "--pass", "onnxscript:optimize-for-ort", "--json", str(tmp_path / "r.json"), "-q"])
    cells = [r for r in json.loads((tmp_path / "r.json").read_text())["results"] if r.get("type") == "cell"]
    (cell,) = [c for c in cells if c["pass_id"] == "onnxscript:optimize-for-ort"]
    assert "SimplifiedLayerNormalization" in cell["ops_after"], cell["ops_after"]  # the fusion happened
    assert not [f["id"] for f in cell["findings"] if f["kind"] == "invalid-model"], cell["findings"]
    assert "ai.onnx::SimplifiedLayerNormalization" in cell["notes"]["validity"]


@pytest.fixture
def without_ort_schemas(monkeypatch):
    """onnxruntime's schema listing failing, as in a build without schemas; the cached listing cleared around it."""
    from onnxruntime.capi import onnxruntime_pybind11_state as ort_c

    def refuse():
        raise RuntimeError("this build registers no schemas")

    ort_own_ops._ort_schemas.cache_clear()
    monkeypatch.setattr(ort_c, "get_all_operator_schema", refuse)
    yield
    monkeypatch.undo()
    ort_own_ops._ort_schemas.cache_clear()


def test_without_onnxruntime_schemas_no_op_is_onnxruntime_own_and_the_checker_judges_it(without_ort_schemas):
    """``ort_own_ops._ort_schemas``: when onnxruntime cannot list its schemas nothing is its own op, so
    SimplifiedLayerNormalization in ai.onnx is the checker's invalid model again (not a crash of the oracle).
    Kills ``except Exception`` → another exception type, which let the listing's error escape."""
    assert ort_own_ops._ort_schemas() == {}
    assert ort_own_ops.ort_own(_fused()) == []
    found = validity.check(_run("ort:extended", _fused()))
    assert [f.kind for f in found] == ["invalid-model"] and "SimplifiedLayerNormalization" in found[0].message
