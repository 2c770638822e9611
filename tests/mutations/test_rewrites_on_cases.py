"""The issue 15 / 18 rewrites on real models (the common form of library cases, and models the
onnx wheel ships: PyTorch exports and light model-zoo nets): each applies and the equivalence
gate accepts the mutant on the feeds the run would use."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest

from passcheck.cases import registry
from passcheck.mutations.subject import verified_mutants

from ._models import feeds

WHEEL = Path(onnx.__file__).parent / "backend/test/data"
# (rewrite id, "case:<library case id>" or "wheel:<model path in the onnx wheel's test data>")
ON_MODELS = [
    ("shape-derived-count", "case:shape/static-1-3-reshape"),
    ("shape-derived-count", "case:broadcast/expand-ones"),
    ("shape-derived-count-slice", "case:shape/dynamic-1-3-output"),
    ("parameter-leading-ones", "case:broadcast/scalar-rank"),
    ("parameter-leading-ones", "case:optional-input/conv-add"),
    ("gemm-to-matmul-add", "case:optional-input/gemm-c"),
    ("gemm-to-matmul-add", "case:attributes/gemm-defaults"),
    ("matmul-add-to-gemm", "case:graph-structure/node-names"),
    ("shape-derived-count", "wheel:pytorch-operator/test_operator_repeat/model.onnx"),
    ("shape-derived-count-slice", "wheel:pytorch-operator/test_operator_repeat_dim_overflow/model.onnx"),
    ("reshape-split", "wheel:pytorch-converted/test_PixelShuffle/model.onnx"),
    ("float64-compute", "wheel:pytorch-converted/test_PixelShuffle/model.onnx"),
    ("attribute-zero-no-field", "wheel:pytorch-operator/test_operator_reduced_mean/model.onnx"),
    ("opset-stamp-down", "wheel:simple/test_sequence_model1/model.onnx"),
    ("opset-stamp-up", "wheel:pytorch-converted/test_Conv1d/model.onnx"),
    ("opset-stamp-above", "wheel:pytorch-converted/test_Conv2d/model.onnx"),  # IR 3, opset 6 -> IR 5, opset 10 (M315)
    ("duplicate-shared-node", "wheel:light/light_inception_v1.onnx"),
    ("transpose-conjugate", "wheel:light/light_inception_v1.onnx"),
    ("transpose-conjugate", "wheel:light/light_resnet50.onnx"),
    ("transpose-conjugate", "wheel:pytorch-operator/test_operator_reduced_mean/model.onnx"),
    ("prose-default-explicit", "case:attributes/conv-defaults"),
    ("prose-default-omitted", "wheel:pytorch-converted/test_ConvTranspose2d/model.onnx"),
    ("prose-default-omitted", "wheel:pytorch-converted/test_MaxPool3d_stride/model.onnx"),
    ("element-indices-negative", "case:generated/gatherelements-13.axis"),
    ("element-indices-negative", "case:generated/gathernd-13.shape"),
    ("loop-cond-omitted", "case:generated/loop-13.opset"),
    ("sequence-position-negative", "case:generated/sequenceat-11.opset"),
    ("sequence-position-negative", "case:generated/sequenceinsert-11.opset"),
    ("raw-data", "case:pattern-ort-qdq/matmul-4bit-bias"),
]


def _load(where: str) -> onnx.ModelProto:
    kind, name = where.split(":", 1)
    return registry().get(name).forms["common"].build() if kind == "case" else onnx.load(WHEEL / name)


@pytest.mark.parametrize(("rid", "where"), ON_MODELS, ids=[f"{r}-{w}" for r, w in ON_MODELS])
def test_rewrite_verified_on_a_real_model(rid, where):
    model = _load(where)
    found = verified_mutants(model, [rid], feeds(model), where)
    assert list(found) == [rid] and found[rid][1].count >= 1
