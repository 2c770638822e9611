"""The bases of ``onnx_fusions.fuse`` (``cases/patterns_onnxscript_onnx_fusions.py``): each case's first form
triggers the fusion rule it names under ``onnxscript:onnx-fusions`` (judged by effect,
``passcheck.coverage.onnxscript.triggers``), and the uncommon form, the ONNX op the fusion writes, runs to the same
values under onnxruntime."""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
import pytest

from passcheck.cases import registry
from passcheck.engine import feeds_for

FAMILY = "pattern-onnxscript-onnx-fusions/"
RULES = {"rms-norm": "RmsNormFusion1", "rms-norm-cast": "RmsNormFusion2", "rotary": "RotaryEmbedding23"}


def _case(name):
    return next(c for c in registry() if c.id == FAMILY + name)


def test_the_family_is_the_three_bases():
    assert sorted(c.id[len(FAMILY) :] for c in registry() if c.id.startswith(FAMILY)) == sorted(RULES)


@pytest.mark.parametrize("name", sorted(RULES))
def test_the_first_form_triggers_its_fusion_and_the_forms_agree(name):
    from passcheck.coverage.onnxscript import triggers

    case = _case(name)
    first, *rest = case.forms
    fired = triggers(case.forms[first].build())
    assert f"onnxscript:rule:{RULES[name]}" in fired, sorted(fired)
    assert fired[f"onnxscript:rule:{RULES[name]}"].startswith("onnxscript:onnx-fusions"), fired
    models = [case.forms[f].build() for f in (first, *rest)]
    feeds = feeds_for(models[0], case.id, [case.bindings[-1]])[0]
    got = [
        ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
        for m in models
    ]
    tol = 2e-3 if got[0].dtype == np.float16 else 1e-5
    for other in got[1:]:
        np.testing.assert_allclose(other.astype(np.float32), got[0].astype(np.float32), rtol=tol, atol=tol)
