"""The broadcast-expand bases (``cases/broadcast_expand.py``, M330): one per two-input op whose onnx schema states
broadcasting and per operand; each first form triggers onnxscript's ``ExpandFirst_<op>`` / ``ExpandSecond_<op>``
rule by effect (``passcheck.coverage.onnxscript.triggers``), every form passes the checker and runs to the same values
under onnxruntime, and a run of the rules on them shows docs/found.md rows 1058 and 1059."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.cases import registry
from passcheck.runtime.feeds import synthesize

FAMILY = "broadcast-expand/"


def _cases():
    return {c.id[len(FAMILY) :]: c for c in registry() if c.id.startswith(FAMILY)}


def test_the_family_is_every_broadcasting_two_input_op_at_opset_18_each_operand():
    import onnx.defs

    want = set()
    for s in onnx.defs.get_all_schemas():
        try:
            at = onnx.defs.get_schema(s.name, 18, "")
        except onnx.defs.SchemaError:
            continue
        doc = at.doc or ""
        if s.domain == "" and len(at.inputs) == 2 and len(at.outputs) == 1 and "directional" in doc:
            want |= {f"{at.name.lower()}-{at.since_version}.{k}" for k in ("first", "second")}
    assert set(_cases()) == want
    assert {"mod-13.first", "bitshift-11.second", "prelu-16.first", "prelu-16.second"} <= want


@pytest.mark.parametrize("name", sorted(_cases()))
def test_the_first_form_triggers_its_rule_and_the_forms_agree(name):
    from passcheck.coverage.onnxscript import triggers

    case = _cases()[name]
    first, *rest = case.forms
    side = "First" if name.endswith(".first") else "Second"
    op = next(n.op_type for n in case.forms[first].build().graph.node if n.op_type != "Expand")
    models = [case.forms[f].build() for f in (first, *rest)]
    for m in models:
        onnx.checker.check_model(m, full_check=True)
    assert f"onnxscript:rule:Expand{side}_{op}" in triggers(models[0]), name
    feeds = synthesize(models[0], {}, 0)
    got = [
        ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
        for m in models
    ]
    assert got[0].shape == tuple(d.dim_value for d in models[0].graph.output[0].type.tensor_type.shape.dim)
    np.testing.assert_allclose(got[1], got[0], rtol=1e-6, atol=1e-6)


def test_a_run_of_the_opt_in_rules_on_the_family_shows_rows_1058_and_1059():
    from passcheck import api

    report = api.run(
        [FAMILY + n for n in ("mod-13.first", "bitshift-11.second", "prelu-16.first", "add-14.first")],
        ["onnxscript:rewrite-opt-in"],
        isolation=False,
    )
    mine = [f for f in report.findings if f.pass_id == "onnxscript:rewrite-opt-in"]
    seen = {(f.case[len(FAMILY) :], f.form, f.kind) for f in mine}
    assert ("mod-13.first", "common", "wrong-result") in seen  # fmod dropped: the float Mod fails to run
    assert ("bitshift-11.second", "common", "invalid-model") in seen  # direction dropped
    assert ("prelu-16.first", "common", "invalid-model") in seen  # slope larger than X
    assert not any(c == "add-14.first" for c, _, _ in seen)  # the rule's right answer is no finding
