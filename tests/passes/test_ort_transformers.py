"""onnxruntime's transformer optimizer as ``ort-transformers:*`` ids (:mod:`passcheck.passes.ort_transformers`):
Python fusions only, judged like onnxruntime's own saved models."""

from __future__ import annotations

from passcheck.api import check_model
from passcheck.cases import load_builtin
from passcheck.oracles import validity
from passcheck.passes import get_pass
from passcheck.passes.ort_transformers import MODEL_TYPES, OrtTransformersAdapter
from tests.passes._helpers import cell_of

# GELU through Erf (FusionGelu → com.microsoft::Gelu), opset 17.
GELU = load_builtin().get("fusion-gelu/gelu-erf-r2").build("common")
# A BERT block at opset 12: FusionLayerNormalization writes LayerNormalization in the ai.onnx domain, which onnx
# defines from opset 17 only and onnxruntime registers there from 1.
BERT_BLOCK = load_builtin().get("fusion-attention/bert-block").build("common")


def test_each_model_type_fuses_and_the_output_is_judged_as_onnxruntimes():
    passes = [f"ort-transformers:{t}" for t in MODEL_TYPES]
    for model, op in ((GELU, "com.microsoft::Gelu"), (BERT_BLOCK, "LayerNormalization")):
        report = check_model(model, passes, name="ort-transformers/fuses")
        for c in (c for c in report.cells if c.pass_id in passes):
            assert c.status == "changed" and not c.findings, (c.pass_id, c.status, c.error, c.findings)
            assert c.ops_after.get(op) == 1, c.ops_after
    assert get_pass("ort-transformers:bert").optimizes and not get_pass("ort-transformers:bert").folds_constants


def test_without_the_transformer_ids_in_for_ort_its_layernorm_is_an_invalid_model(monkeypatch):
    monkeypatch.setattr(validity, "FOR_ORT", ("onnxscript:optimize-for-ort",))
    report = check_model(BERT_BLOCK, ["ort-transformers:bert"], name="ort-transformers/for-ort")
    (cell,) = [c for c in report.cells if c.pass_id == "ort-transformers:bert"]
    assert "invalid-model" in {f.kind for f in cell.findings}, cell.findings


class _NotSaved(OrtTransformersAdapter):
    """A broken adapter: takes ``.model`` without ``save_model_to_file`` (no com.microsoft import)."""

    def __init__(self):
        super().__init__("bert")
        self.id = "ort-transformers:broken-unsaved"

    def apply(self, model, workdir):
        from onnxruntime.transformers.optimizer import optimize_model

        return optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0).model


def test_an_adapter_that_skips_save_model_to_file_is_an_invalid_model():
    cell = cell_of(_NotSaved(), GELU, "ort-transformers/broken")
    assert "invalid-model" in {f.kind for f in cell.findings}, cell.findings
