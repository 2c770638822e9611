"""The pattern-onnxoptimizer/* bases (cases/patterns_onnxoptimizer.py): each reaches the onnxoptimizer pass it
names, which acted on no other base of the library (session 18's run: 16 passes changed no form beyond the
round trip every pass makes), and its neighbours move what the pass reads. Real onnxoptimizer, real onnxruntime."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import onnxruntime as ort
import pytest

from passcheck.cases import registry

onnxoptimizer = pytest.importorskip("onnxoptimizer")

CASES = registry().select(["pattern-onnxoptimizer/*"])


def _target(case) -> str:
    (p,) = [p for p in case.passes if p.startswith("onnxoptimizer:pass-")]
    return p.removeprefix("onnxoptimizer:pass-").replace("-", "_")


def _ops(model) -> Counter:
    return Counter(n.op_type for n in model.graph.node)


def test_each_base_names_a_pass_that_acted_on_no_other_base():
    assert {_target(c) for c in CASES} == {
        "fuse_pad_into_pool",
        "fuse_consecutive_log_softmax",
        "eliminate_nop_monotone_argmax",
        "fuse_consecutive_concats",
        # cases/patterns_onnxoptimizer_more.py (session 20: 13 more passes no base reached)
        "eliminate_nop_cast",
        "eliminate_nop_flatten",
        "eliminate_nop_pad",
        "eliminate_nop_concat",
        "eliminate_nop_split",
        "fuse_consecutive_reduce_unsqueeze",
        "fuse_consecutive_squeezes",
        "fuse_matmul_add_bias_into_gemm",
        "replace_einsum_with_matmul",
        "fuse_concat_into_reshape",
        "eliminate_deadend",
        "fuse_consecutive_slices",
        "adjust_slice_and_matmul",
    }


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_the_named_pass_acts_on_the_common_form(case):
    common = case.build("common")
    out = onnxoptimizer.optimize(common, [_target(case)])
    nop = onnxoptimizer.optimize(common, ["nop"])  # the round trip every pass makes
    assert out.SerializeToString() != nop.SerializeToString(), (case.id, _ops(out))


def test_a_neighbour_turns_off_the_flag_the_pool_fusion_overrides():
    """AveragePool's pads are counted (count_include_pad=1) on every form; the hunt's attribute neighbour
    flips the flag to its default 0 where the pool has pads of its own. fuse_pad_into_pool sets it back to 1
    when it fuses: the neighbour computes other values after the pass (docs/found.md, session 19)."""
    from passcheck.hunt import variation

    base = registry().get("pattern-onnxoptimizer/pad-averagepool").build("pool-pads")
    forms = [f for f in variation.neighbours(base, random.Random(0)) if "attr-count_include_pad" in f]
    assert forms, variation.neighbours(base, random.Random(0))
    neighbour, _ = variation.build(base, forms[0])
    x = {"x": np.random.default_rng(0).standard_normal((1, 1, 4, 4)).astype(np.float32)}

    def run(m):
        return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0]

    fused = onnxoptimizer.optimize(neighbour, ["fuse_pad_into_pool"])
    assert "Pad" not in _ops(fused)
    assert not np.allclose(run(neighbour), run(fused), atol=1e-5)
