"""The issue 15 / 18 rewrites on real models (the common form of library cases): each applies and
the equivalence gate accepts the mutant on the feeds the run would use."""

from __future__ import annotations

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
