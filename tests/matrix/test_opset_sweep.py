"""The version-converter sweep the matrix runs by default (issue 18.7): ``onnx:convert-opset-down``
/ ``-up`` convert each model to its neighbouring opset boundary, computed from its ops' schemas."""

from __future__ import annotations

import json

import onnx
import onnx.defs

from passcheck.matrix.plan import build_models
from passcheck.passes import get_pass
from passcheck.passes.version_converter import opset_boundary

RELU13 = '<ir_version: 8, opset_import: ["" : 13]>\ng (float[N,3] x) => (float[N,3] y) { y = Relu(x) }'
SOFTMAX13 = '<ir_version: 8, opset_import: ["" : 13]>\ng (float[N,3] x) => (float[N,3] y) { y = Softmax(x) }'


def test_boundaries_come_from_the_ops_since_versions():
    m = onnx.parser.parse_model(RELU13)  # Relu: versions 6, 13, 14
    assert opset_boundary(m, "down")[0] == 12
    assert opset_boundary(m, "up")[0] == 14
    newest = onnx.parser.parse_model(RELU13.replace('"" : 13', f'"" : {onnx.defs.onnx_opset_version()}'))
    assert opset_boundary(newest, "up")[0] is None


def test_sweep_passes_convert_and_stay_equivalent(tmp_path):
    import numpy as np

    from passcheck.runtime import run_ort

    m = onnx.parser.parse_model(SOFTMAX13)  # Softmax: versions 1, 11, 13 (the converter adapts 13 → 12)
    x = {"x": np.array([[-1.0, 0.5, 2.0]], "float32")}
    want = run_ort(m, x).outputs["y"]
    out = get_pass("onnx:convert-opset-down").run(m, tmp_path)
    assert out.ok, out.error
    assert [o.version for o in out.model.opset_import if o.domain in ("", "ai.onnx")] == [12]
    np.testing.assert_allclose(run_ort(out.model, x).outputs["y"], want, rtol=1e-6)
    relu = onnx.parser.parse_model(RELU13)
    out = get_pass("onnx:convert-opset-up").run(relu, tmp_path)
    assert out.ok and [o.version for o in out.model.opset_import if o.domain in ("", "ai.onnx")] == [14]


def test_a_model_without_a_boundary_is_unavailable_not_a_finding(tmp_path):
    newest = onnx.parser.parse_model(RELU13.replace('"" : 13', f'"" : {onnx.defs.onnx_opset_version()}'))
    out = get_pass("onnx:convert-opset-up").run(newest, tmp_path)
    assert out.status == "unavailable" and "newest" in out.error


def test_matrix_plan_adds_the_sweep_only_when_no_pass_is_given(tmp_path):
    doc = build_models(["optional-input/conv-relu"], [], tmp_path / "a")
    assert doc["cases"][0]["passes"][-2:] == ["onnx:convert-opset-down", "onnx:convert-opset-up"]
    doc = build_models(["optional-input/conv-relu"], ["ort:basic"], tmp_path / "b")
    assert doc["cases"][0]["passes"] == ["ort:basic"]
    assert json.loads((tmp_path / "b" / "manifest.json").read_text())["cases"][0]["passes"] == ["ort:basic"]
