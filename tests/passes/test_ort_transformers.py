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


def test_the_other_model_types_run_by_an_offered_class_are_read_from_the_installed_release():
    """``more_types``: a type run by BertOnnxModel / Gpt2OnnxModel with options writing no CPU-less op is offered
    and fuses like bert; a type with its own class, or options writing a CPU-less op, is left out with why."""
    import pytest

    from passcheck.errors import PasscheckError
    from passcheck.passes import ort_transformers

    ids = ort_transformers.extra_pass_ids()
    assert "ort-transformers:swin" in ids and "ort-transformers:unet" not in ids, ids
    with pytest.raises(PasscheckError, match="left out: its optimizer class UnetOnnxModel"):
        get_pass("ort-transformers:unet")
    report = check_model(GELU, ids, name="ort-transformers/more")
    for c in (c for c in report.cells if c.pass_id in ids):
        assert c.status == "changed" and not c.findings, (c.pass_id, c.status, c.error, c.findings)


def test_a_type_whose_options_write_an_op_without_a_cpu_kernel_is_left_out(monkeypatch):
    from passcheck.passes import ort_transformers

    ort_transformers.more_types.cache_clear()
    monkeypatch.setitem(ort_transformers.FLAG_OPS, "enable_gelu", "NoSuchCpuOp")  # every type enables Gelu
    try:
        assert "no kernel for" in (ort_transformers.more_types()["swin"] or ""), ort_transformers.more_types()
    finally:
        ort_transformers.more_types.cache_clear()


class _NotSavedSwin(_NotSaved):
    """The same broken adapter on a type read from the release (``swin``)."""

    def __init__(self):
        OrtTransformersAdapter.__init__(self, "swin")
        self.id = "ort-transformers:broken-unsaved-swin"


def test_a_read_type_whose_output_skips_save_model_to_file_is_an_invalid_model():
    cell = cell_of(_NotSavedSwin(), GELU, "ort-transformers/broken-swin")
    assert "invalid-model" in {f.kind for f in cell.findings}, cell.findings
