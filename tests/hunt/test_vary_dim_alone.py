"""The ``input-dim-alone`` neighbour (:mod:`passcheck.hunt.vary_inputs`): a size two fed inputs share, doubled in
one of them only. Judged with real onnx checks and onnxruntime runs: Attention-23 with equal heads moved to
grouped-query attention (Operators.md Attention: ``q_num_heads`` a multiple of ``kv_num_heads``), a planted pass
repeating the key heads as onnx 1.19.0's function body did (``tests/hunt/planted_gqa.py``, docs/recall.md R71),
and onnx 1.23.2's own inliner, which is right."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import onnx

from passcheck.hunt import variation, vary_probe, vary_twin
from passcheck.hunt.probe import Setting

sys.path.insert(0, str(Path(__file__).parent))
import planted_gqa as P  # noqa: E402 - the planted pass and base case, registered on import
from conftest import declared_dims as _dims  # noqa: E402

FORM = "vary:input-dim-alone@Q=1"


def test_every_shared_static_size_is_a_site_and_only_one_input_moves():
    base = P.base()
    forms = {f for f in variation.neighbours(base, random.Random(0)) if variation.kind(f) == "vary:input-dim-alone"}
    # Q's axis 2 (3) is no other input's; every other axis is shared, and every site is offered
    want = {f"vary:input-dim-alone@{n}={a}" for n in "QKV" for a in range(4)} - {"vary:input-dim-alone@Q=2"}
    assert forms == want, forms
    gqa, labels = variation.build(base, FORM)
    assert labels == ["Q"]
    assert [_dims(v) for v in gqa.graph.input] == [[1, 4, 3, 4], [1, 2, 5, 4], [1, 2, 5, 4]]
    assert _dims(gqa.graph.output[0]) == [1, 4, 3, 4]  # the annotation refreshed from onnx shape inference
    onnx.checker.check_model(gqa, full_check=True)
    assert _dims(base.graph.input[0]) == [1, 2, 3, 4]  # the base is never modified
    assert set(vary_twin.doubled(base, "Q=1")) == {"Q", "K", "V"}  # the twin keeps the heads equal


def test_the_gate_keeps_the_relations_the_op_accepts(inproc_executor):
    base = P.base()
    for form, ok in ((FORM, True), ("vary:input-dim-alone@K=1", False), ("vary:input-dim-alone@Q=3", False)):
        neighbour, _ = variation.build(base, form)
        setting = vary_probe.setting_for(Setting("attention-test/gqa"), form, neighbour)
        reason = vary_probe.invalid(setting, base, neighbour, inproc_executor, form)
        assert (reason is None) == ok, (form, reason)  # 4 query heads over 2 kv heads run; 2 over 4 do not


def test_a_case_own_feeds_are_doubled_along_the_axis():
    own = Setting("attention-test/gqa", feeds=lambda b, s: {"Q": np.arange(24, dtype="f4").reshape(1, 2, 3, 4)})
    fed = vary_probe.setting_for(own, FORM).feed_list(P.base())[0]["Q"]
    assert fed.shape == (1, 4, 3, 4)
    assert (fed[:, 2:] == fed[:, :2]).all()


def test_a_pass_repeating_heads_by_tile_is_found_on_the_neighbour_only(inproc_executor):
    from passcheck.engine import Subject, evaluate

    base = P.base()
    cells = evaluate(
        Subject(id="attention-test/gqa", forms={"common": base}, bindings=[{}]), [P.PASS_ID], executor=inproc_executor
    )
    assert not [f for c in cells for f in c.findings], cells  # equal heads: the pass leaves the node alone
    out = vary_probe.judge(Setting("attention-test/gqa"), base, FORM, P.PASS_ID, inproc_executor)
    assert out.status == "done", out
    assert "numeric" in {f.oracle for f in out.findings}, out.findings


def test_onnx_inliner_expands_grouped_query_attention_right(inproc_executor):
    """onnx 1.23.2's Attention body repeats each key head (onnx/onnx#7274): not blamed on the neighbour."""
    out = vary_probe.judge(
        Setting("attention-test/gqa"), P.base(), FORM, "onnx:inline-schema-functions", inproc_executor
    )
    assert out.status == "done", out
    assert not [f for f in out.findings if f.oracle == "numeric"], out.findings
