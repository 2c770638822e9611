"""The issue 15 / 18 rewrites on real models (the common form of library cases, and models the
onnx wheel ships): each applies and the equivalence gate accepts the mutant on the feeds the run
would use."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest

from passcheck.cases import registry
from passcheck.mutations.subject import verified_mutants

from ._models import feeds

# (rewrite id, case id)
ON_CASES = [
    ("shape-derived-count", "shape/static-1-3-reshape"),
    ("shape-derived-count", "broadcast/expand-ones"),
    ("shape-derived-count-slice", "shape/dynamic-1-3-output"),
    ("parameter-leading-ones", "broadcast/scalar-rank"),
    ("parameter-leading-ones", "optional-input/conv-add"),
    ("gemm-to-matmul-add", "optional-input/gemm-c"),
    ("gemm-to-matmul-add", "attributes/gemm-defaults"),
    ("matmul-add-to-gemm", "graph-structure/node-names"),
]


@pytest.mark.parametrize(("rid", "case_id"), ON_CASES, ids=[f"{r}-{c}" for r, c in ON_CASES])
def test_rewrite_verified_on_case(rid, case_id):
    model = registry().get(case_id).forms["common"].build()
    found = verified_mutants(model, [rid], feeds(model), case_id)
    assert list(found) == [rid] and found[rid][1].count >= 1


WHEEL = Path(onnx.__file__).parent / "backend/test/data"
# (rewrite id, a model the onnx wheel ships: exported by PyTorch, or a light model zoo net)
ON_WHEEL = [
    ("shape-derived-count", "pytorch-operator/test_operator_repeat/model.onnx"),
    ("shape-derived-count-slice", "pytorch-operator/test_operator_repeat_dim_overflow/model.onnx"),
    ("reshape-split", "pytorch-converted/test_PixelShuffle/model.onnx"),
    ("float64-compute", "pytorch-converted/test_PixelShuffle/model.onnx"),
    ("attribute-zero-no-field", "pytorch-operator/test_operator_reduced_mean/model.onnx"),
    ("opset-stamp-down", "pytorch-converted/test_Conv1d/model.onnx"),
    ("opset-stamp-up", "pytorch-converted/test_Conv1d/model.onnx"),
    ("duplicate-shared-node", "light/light_inception_v1.onnx"),
]


@pytest.mark.parametrize(("rid", "path"), ON_WHEEL, ids=[f"{r}-{p.split('/')[-2 if p.endswith('model.onnx') else -1]}" for r, p in ON_WHEEL])
def test_rewrite_verified_on_wheel_model(rid, path):
    model = onnx.load(WHEEL / path)
    found = verified_mutants(model, [rid], feeds(model), path)
    assert list(found) == [rid] and found[rid][1].count >= 1
