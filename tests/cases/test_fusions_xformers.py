"""The bases for entries no base triggered (cases/fusions_sdpa.py, fusions_rotary.py, fusions_gqa.py,
fusions_conv_add_act.py, fold_onnxscript.py, patterns_onnxscript_fused_matmul.py, patterns_onnxscript_scatter.py).

(tests/cases/test_library.py checks that every form is valid, runs and agrees.) The common form
triggers what the case targets, observed by effect in the isolation worker (onnxscript:
``fuse_xformers``' fusion counts, :func:`passcheck.coverage.onnxscript.triggers`; onnxruntime: the
verbose log's ``GraphTransformer <name> modified: 1``, :func:`passcheck.coverage.ort.triggers`).
"""

from __future__ import annotations

import pytest

from passcheck.cases import registry
from passcheck.cases.fusion import TARGET
from passcheck.cases.rules import TARGET as RULE_TARGET
from passcheck.cases.rules import rule_tag
from passcheck.coverage import onnxscript as cov_script
from passcheck.coverage import ort as cov_ort
from passcheck.passes.isolation import IsolatedExecutor

FAMILIES = (
    "fusion-sdpa/",
    "fusion-rotary/",
    "fusion-conv-add-act/",
    "fold-onnxscript/",
    "pattern-onnxscript-fused-matmul/",
    "pattern-onnxscript-scatter/",
    "fusion-gqa/",
)
CASES = [c for c in registry() if c.id.startswith(FAMILIES)]
#: Entries `passcheck coverage` listed as untriggered before these bases, each a base now triggers.
NEWLY = {
    "fusion-sdpa/bare": {"sdpa", "sdpa_via_mha"},
    "fusion-sdpa/self-attention": {"sdpa", "mha2", "mha_bias", "attention"},
    "fusion-sdpa/scaled-query": {"sdpa", "mha2", "mha_scale", "mha_bias", "attention"},
    "fusion-sdpa/kv-cache": {"sdpa", "mha1"},
    "fusion-rotary/llama": {"rotary_embedding", "cos_sin_cache"},
    "fusion-rotary/partial": {"rotary_embedding", "cos_sin_cache", "partial_rotary_embedding"},
    "fusion-conv-add-act/grouped-residual": {"ConvAddActivationFusion"},
    "fold-onnxscript/abs": {"ai.onnx::Abs"},
    "fold-onnxscript/add": {"ai.onnx::Add"},
    "fold-onnxscript/squeeze": {"ai.onnx::Squeeze"},
    "fold-onnxscript/split-to-sequence": {"ai.onnx::SplitToSequence"},
    "pattern-onnxscript-fused-matmul/batch-flip-a": {"TransposeFusedMatMulWithFlippedBatch1"},
    "pattern-onnxscript-fused-matmul/batch-flip-b": {"TransposeFusedMatMulWithFlippedBatch2"},
    "pattern-onnxscript-fused-matmul/batch-flip-transpose-a": {"TransposeFusedMatMulWithFlippedBatchAndTranspose1"},
    "pattern-onnxscript-fused-matmul/batch-flip-transpose-b": {"TransposeFusedMatMulWithFlippedBatchAndTranspose2"},
    "pattern-onnxscript-fused-matmul/fused-transpose-a": {"TransposeFusedMatMul1"},
    "pattern-onnxscript-fused-matmul/fused-batch-transpose-a": {"TransposeFusedMatMulWithBatchAndTranspose1"},
    "pattern-onnxscript-fused-matmul/fused-batch-transpose-b": {"TransposeFusedMatMulWithBatchAndTranspose2"},
    "pattern-onnxscript-scatter/all-dynamic": {"ScatterAllDynamic"},
    "fusion-gqa/llama": {"gqa", "rotary_embedding", "cos_sin_cache", "sdpa"},
    "fusion-gqa/packed-qkv": {"packed_qkv_for_gqa", "gqa"},
}


def test_the_families_hold_the_bases():
    assert {c.id for c in CASES} == set(NEWLY)


@pytest.fixture(scope="module")
def fired():
    """Case id → names of what its common form triggers (onnxscript fusions or ORT transformers)."""
    out = {}
    with IsolatedExecutor(timeout=300) as ex:
        for case in CASES:
            model = case.build("common")
            keys = ex.call(cov_ort.triggers if TARGET.search(case.doc) else cov_script.triggers, model)
            out[case.id] = {k.split(":", 2)[2] for k in keys}
    return out


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_common_form_triggers_its_targets(case, fired):
    target = (TARGET.search(case.doc) or RULE_TARGET.search(case.doc)).group(1)
    assert target in fired[case.id], f"{case.id}: {target} did not fire; fired: {sorted(fired[case.id])}"
    assert NEWLY[case.id] <= fired[case.id], sorted(NEWLY[case.id] - fired[case.id])
    tagged = {t for t in case.tags if t.startswith("onnxscript-")}
    assert tagged <= {rule_tag(n) for n in fired[case.id]}, f"{case.id}: tagged but not triggered"
