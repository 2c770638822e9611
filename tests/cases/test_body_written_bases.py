"""The body-written bases (``cases/function_body_written.py``, M350) and the commuted rule twins
(``cases/rule_commuted.py``, M351): the first form of each is a spelling no other base's first form held; it triggers
the onnxscript rules that match that spelling by effect (``passcheck.coverage.onnxscript.triggers``: HardSwish's body
``HardSwishFusionFromHardSigmoid`` in both Mul orders, the hand-written HardSwish / HardSigmoid cases' commuted
twins ``HardSwishFusion#2``-``#4`` and ``HardSigmoidFusion#2``), and the forms agree under onnxruntime."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.cases import registry
from passcheck.runtime.feeds import synthesize


def _library():
    """The registry with the gated library families registered (lazy sources: passcheck.cases.sources.GatedModule)."""
    reg = registry()
    reg.claim_library()
    return reg


def _family(prefix: str) -> dict:
    return {c.id[len(prefix) :]: c for c in _library() if c.id.startswith(prefix)}


def _agree(case) -> list[onnx.ModelProto]:
    models = [f.build() for f in case.forms.values()]
    feeds = synthesize(models[0], {}, 0)
    got = []
    for m in models:
        onnx.checker.check_model(m, full_check=True)
        got.append(ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds))
    for other in got[1:]:
        for a, b in zip(got[0], other):
            np.testing.assert_allclose(b, a, rtol=1e-5, atol=1e-5)
    return models


def test_every_schema_body_the_rewrite_expands_is_a_base_its_op_as_the_other_form():
    """One base per (schema with a function body, opset its body is written for) the recipe builds and the rewrite
    expands, but the gate's drops (SwiGLU-28: no kernel; CastLike-24/25: the reference evaluator refuses them)."""
    got = {c.id for c in _library() if c.id.startswith("body-written/")}  # loads the library (passcheck._library)
    from passcheck._library.function_body_opsets import body_opsets, function_schemas
    from passcheck._library.function_body_written import _candidates

    want = {c.id for s in function_schemas() for o, _ in body_opsets(s) for c in _candidates(s, o)}
    assert got <= want and len(want - got) <= 4, sorted(want - got)
    assert {"body-written/hardswish-14.opset-14", "body-written/hardswish-14.opset-14.commuted"} <= got
    for cid in ("body-written/layernormalization-17.opset-17", "body-written/hardswish-14.opset-14"):
        case = _library().get(cid)
        op = cid.split("/")[1].split("-")[0]
        common, node = (f.build() for f in case.forms.values())
        assert not any(n.op_type.lower() == op for n in common.graph.node)
        assert [n.op_type.lower() for n in node.graph.node] == [op]


@pytest.mark.parametrize(
    ("cid", "rule"),
    [
        ("body-written/hardswish-14.opset-14", "HardSwishFusionFromHardSigmoid#2"),  # the body: Mul(X, HardSigmoid(X))
        ("body-written/hardswish-14.opset-14.commuted", "HardSwishFusionFromHardSigmoid"),
        ("commuted/pattern-onnxscript-opt-in-hardswish.mul", "HardSwishFusion#2"),
        ("commuted/pattern-onnxscript-opt-in-hardswish.add", "HardSwishFusion#3"),
        ("commuted/pattern-onnxscript-opt-in-hardswish.add-mul", "HardSwishFusion#4"),
        ("commuted/pattern-onnxscript-opt-in-hardsigmoid.add", "HardSigmoidFusion#2"),
    ],
)
def test_the_first_form_triggers_the_rule_of_its_operand_order_and_the_forms_agree(cid, rule):
    from passcheck.coverage.onnxscript import triggers

    models = _agree(_library().get(cid))
    assert f"onnxscript:rule:{rule}" in triggers(models[0]), sorted(triggers(models[0]))


def test_commuted_twins_only_for_rules_onnxscript_applies_in_both_orders():
    """The twins' rules are the names the installed onnxscript repeats (``commute=True``); a rule case of a rule it
    applies in one order (``MatMulAddToGemm``, ``ExpandSecond_Add``) gets none, so a default run has no parity
    finding from them."""
    twins = _family("commuted/")  # loads the library (passcheck._library)
    from passcheck._library.rule_commuted import _rule, commuted_rule_names

    names = commuted_rule_names()
    assert {"HardSwishFusion", "HardSigmoidFusion", "HardSwishFusionFromHardSigmoid"} <= names
    assert "ExpandSecond_Add" not in names
    assert len(twins) == 4
    assert all(_rule(c) in names for c in twins.values())
    for c in twins.values():
        _agree(c)


def test_a_run_compares_the_op_and_its_body_by_status_and_precision_not_ops():
    """onnxruntime's basic level expands Attention-25's op into nodes and its extended level fuses the body's MatMul:
    the forms' ops differ after the pass by construction, which is not a missed optimization (``Case.parity``)."""
    from passcheck import api

    cid = "body-written/attention-25.opset-25"
    report = api.run([cid], ["ort:basic", "ort:extended"], isolation=False)
    assert report.cells, "nothing ran"
    assert not [f for f in report.findings if f.oracle == "parity" and f.kind == "missed-optimization"]
