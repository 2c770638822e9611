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


#: The types with an optimizer class of their own (onnxruntime 1.32.0), offered since session 28 (M75).
OWN_CLASS = ("bart", "bert_tf", "bert_keras", "clip", "conformer", "sam2", "tnlr", "unet", "vae", "mmdit")


def test_every_model_type_of_the_installed_release_is_offered_or_left_out_with_why():
    """``more_types``: each MODEL_TYPES type, whatever its optimizer class, is offered unless its optimizer fails on
    a one-node model (phi) or constructs a fusion whose op has no CPU kernel whatever its options (t5); each offered
    type runs on generated bases (GELU through Erf, a BERT block) and is judged, fusing like bert."""
    import pytest

    from passcheck.errors import PasscheckError
    from passcheck.passes import ort_transformers

    ids = ort_transformers.extra_pass_ids()
    assert {f"ort-transformers:{t}" for t in (*OWN_CLASS, "swin", "qwen3")} <= set(ids), ids
    with pytest.raises(PasscheckError, match="left out: its T5OnnxModel constructs FusionRelativePositionBiasBlock"):
        get_pass("ort-transformers:t5")
    with pytest.raises(PasscheckError, match="left out: optimize_model.*'phi'.* raises TypeError"):
        get_pass("ort-transformers:phi")
    for model, op in ((GELU, "com.microsoft::Gelu"), (BERT_BLOCK, "LayerNormalization")):
        report = check_model(model, ids, name="ort-transformers/more")
        cells = [c for c in report.cells if c.pass_id in ids]
        assert {c.pass_id for c in cells} == set(ids)
        for c in cells:
            assert c.status == "changed" and not c.findings, (c.pass_id, c.status, c.error, c.findings)
            assert c.ops_after.get(op) == 1, (c.pass_id, c.ops_after)


def test_a_kernel_less_flag_the_class_honours_is_turned_off_and_one_it_never_reads_is_ignored():
    """unet / vae (UnetOnnxModel reads ``options.enable_group_norm`` …) run with the five flags off, clip
    (ClipOnnxModel never reads them) with its defaults; the adapter's doc says which."""
    from passcheck.passes import ort_transformers

    off = ort_transformers.disabled_flags("unet")
    assert set(off) == set(ort_transformers.FLAG_OPS), off
    assert ort_transformers.disabled_flags("clip") == () and ort_transformers.disabled_flags("bert") == ()
    assert "enable_group_norm" in get_pass("ort-transformers:unet").doc


def test_a_type_whose_options_write_an_op_without_a_cpu_kernel_runs_with_the_flag_off(monkeypatch):
    from passcheck.passes import ort_transformers

    ort_transformers.more_types.cache_clear()
    monkeypatch.setitem(ort_transformers.FLAG_OPS, "enable_gelu", "NoSuchCpuOp")  # every type enables Gelu
    try:
        assert ort_transformers.more_types()["swin"] is None
        assert "enable_gelu" in ort_transformers.disabled_flags("swin")
        report = check_model(GELU, ["ort-transformers:swin"], name="ort-transformers/gelu-off")
        (cell,) = [c for c in report.cells if c.pass_id == "ort-transformers:swin"]
        assert not cell.ops_after.get("com.microsoft::Gelu"), cell.ops_after  # the flag is honoured: no Gelu
    finally:
        ort_transformers.more_types.cache_clear()


def test_a_type_whose_own_fusion_declares_a_kernel_less_op_is_left_out(monkeypatch):
    """The probe's ops are read against the CPU kernels: with Gelu unregistered, FusionGelu (constructed by every
    class, the fixed types' included) is no reason; a type's own fusion's op is (t5's RelativePositionBias)."""
    from passcheck.passes import ort_transformers

    ort_transformers.more_types.cache_clear()
    real = ort_transformers._cpu_ops
    monkeypatch.setattr(ort_transformers, "_cpu_ops", lambda: real() - {"QuickGelu"})
    try:
        types = ort_transformers.more_types()
        assert types["swin"] is None  # QuickGelu is the fixed types' fusion too
        assert "RelativePositionBias" in (types["t5"] or "")
    finally:
        ort_transformers.more_types.cache_clear()
