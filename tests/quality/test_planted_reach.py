"""Issue 18 items 1–4: each kind the library now produces catches a planted pass that mishandles
it, while the cases that existed before (the same ops in their common spellings) do not.
Real onnxruntime sessions, onnx checker and shape inference underneath."""

from __future__ import annotations

import pytest

from passcheck._versions import tool_version
from passcheck.cases import registry
from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

from . import planted_reach as planted


def _run(case_id: str, fn, *, folds: bool = False, optimizes: bool = True):
    pid = f"planted:{fn.__name__}"
    register_pass(FunctionAdapter(pid, fn, folds_constants=folds, optimizes=optimizes))
    try:
        cells = evaluate(Subject.from_case(registry().get(case_id), tool_version("onnx")), [pid], check_input=False)
    finally:
        unregister_pass(pid)
    return cells


def _forms(cells, oracle: str | None = None) -> set[str]:
    return {f.form for c in cells for f in c.findings if oracle is None or f.oracle == oracle}


@pytest.mark.parametrize("case_id", ["count/tile-symbolic", "count/topk-static"])
def test_count_from_a_1d_gather_folded_as_a_scalar_is_caught_on_the_1d_forms(case_id):
    # declared a non-folding pass: it folds one pattern, so the folding oracle does not judge it
    cells = _run(case_id, planted.fold_shape_gather_as_scalar)
    assert _forms(cells) == {"gather-1d", "gather-1d-negative"}
    assert {c.form: c.status for c in cells}["gather"] == "changed"  # the 0-D gathers folded right


def test_count_folding_bug_is_invisible_to_the_older_shape_cases():
    for case_id in ("shape/static-1-3-output", "shape/static-0-2-reshape", "shape/start-only-reshape"):
        assert not _forms(_run(case_id, planted.fold_shape_gather_as_scalar)), case_id


def test_a_constant_only_subgraph_left_unfolded_is_caught_by_folding():
    cells = _run("const-fold/reshape-target", planted.fold_shape_chains_only, folds=True)
    hits = [f for c in cells for f in c.findings if f.oracle == "folding"]
    assert {f.form for f in hits} == {"constant-only", "constant-nodes"}
    assert all(
        f.details["inputs"] == "constants" and f.details["node"] == "mul" and f.details["value"] == [[24]] for f in hits
    )
    assert "reads only constants" in hits[0].message
    status = {c.form: c.status for c in cells}
    assert status["shape-derived"] == "changed" and status["constant-only"] == "unchanged"


def test_folding_shape_chains_only_is_clean_on_shape_cases():
    for case_id in ("shape/static-1-3-reshape", "constant/value-ints-reshape"):
        assert not _forms(_run(case_id, planted.fold_shape_chains_only, folds=True), "folding"), case_id


def test_a_fusion_gated_on_the_opset_import_is_caught_by_the_opset_forms():
    cells = _run("layernorm/skip-opsets", planted.fuse_skip_layernorm_at_opset_17)
    hits = [f for c in cells for f in c.findings]
    assert {f.form for f in hits} == {"opset-18", "opset-19"}
    assert {(f.oracle, f.kind) for f in hits} == {("parity", "missed-optimization")}
    assert not _forms(_run("layernorm/skip-param-rank", planted.fuse_skip_layernorm_at_opset_17))  # all at opset 17


def test_inlining_that_drops_subgraph_initializers_is_caught_on_those_forms():
    # declared not optimizing: op parity between inlined forms is not what this pass is judged on
    cells = _run("control-flow/if-branch-constants", planted.inline_constant_control_flow, optimizes=False)
    assert _forms(cells, "validity") == {"branch-initializer"}
    assert {c.form: c.status for c in cells}["branch-outer-value"] == "changed"  # inlined right
    loop = _run("control-flow/loop-body-constants", planted.inline_constant_control_flow, optimizes=False)
    assert _forms(loop, "validity") == {"body-initializer"}
    for case_id in (
        "control-flow/if-constant-condition",
        "control-flow/loop-trip-one",
    ):  # inlined right, no branch initializers
        cells = _run(case_id, planted.inline_constant_control_flow, optimizes=False)
        assert "changed" in {c.status for c in cells} and not _forms(cells), case_id


def test_a_fusion_matching_only_1d_parameters_is_caught_on_leading_ones():
    cells = _run("layernorm/skip-param-rank", planted.fuse_skip_layernorm_1d_only)
    hits = [f for c in cells for f in c.findings]
    assert {f.form for f in hits} == {"params-rank3", "scale-rank3", "params-rank2"}
    assert {(f.oracle, f.kind) for f in hits} == {("parity", "missed-optimization")}
    assert "SkipLayerNormalization" in hits[0].message or "LayerNormalization" in hits[0].message
    assert not _forms(_run("layernorm/skip-opsets", planted.fuse_skip_layernorm_1d_only))  # every form has [H]
