"""The opt-in rule bases (``cases/patterns_onnxscript_opt_in.py``): each case's first form triggers the onnxscript
opt-in rule it names (the coverage map observes first forms only, and before these bases no case triggered the
Conv-affine, HardSigmoid / HardSwish or Expand-before-a-broadcasting-op rules of ``rules.common``), judged by the
effect the installed onnxscript shows (``passcheck.coverage.onnxscript.triggers``); and the uncommon form, the
computation the rule writes, runs to the same values under onnxruntime."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from passcheck.cases import registry

FAMILY = "pattern-onnxscript-opt-in/"
RULES = {
    "conv-affine": "ConvAffineFusion",
    "affine-conv": "AffineConvFusion",
    "hardswish": "HardSwishFusion",
    "hardsigmoid": "HardSigmoidFusion",
    "expand-before-add": "ExpandSecond_Add",
}


def _case(name):
    return next(c for c in registry() if c.id == FAMILY + name)


def test_the_family_is_the_five_bases():
    assert sorted(c.id[len(FAMILY) :] for c in registry() if c.id.startswith(FAMILY)) == sorted(RULES)


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_first_form_triggers_its_opt_in_rule_and_the_forms_agree(name):
    from passcheck.coverage.onnxscript import triggers

    case = _case(name)
    first, *rest = case.forms
    assert f"onnxscript:rule:{RULES[name]}" in triggers(case.forms[first].build()), name
    models = [case.forms[f].build() for f in (first, *rest)]
    inp = models[0].graph.input[0]
    dims = [d.dim_value or 3 for d in inp.type.tensor_type.shape.dim]
    x = np.random.default_rng(0).standard_normal(dims).astype(np.float32) * 4
    got = [
        ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {inp.name: x})[0]
        for m in models
    ]
    for other in got[1:]:
        np.testing.assert_allclose(other, got[0], rtol=1e-5, atol=1e-5)
