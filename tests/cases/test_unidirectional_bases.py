"""The unidirectional-broadcasting bases (``broadcast/unidirectional-*``, cases/broadcast.py): the operand an op
broadcasts *to* (PRelu's X, Gemm's A beside a full C) is itself an Expand of a smaller value.

Each form passes onnx's full check and runs under onnxruntime to the same values as the first; the PRelu base's
first form meets onnxscript's opt-in ``ExpandFirst_PRelu`` (the installed onnxscript's effect,
``passcheck.coverage.onnxscript.triggers``), and a real ``passcheck run`` of it under ``onnxscript:rewrite-opt-in``
reports the rule's output as invalid (docs/found.md row 1059: the rule takes PRelu's broadcast for multidirectional),
which ``documented.which`` names row 1059."""

from __future__ import annotations

import json

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.cases import registry

FAMILY = "broadcast/unidirectional-"


def _case(name):
    return next(c for c in registry() if c.id == FAMILY + name)


def _feeds(model):
    rng = np.random.default_rng(0)
    return {
        i.name: rng.standard_normal([d.dim_value for d in i.type.tensor_type.shape.dim]).astype(np.float32) * 4
        for i in model.graph.input
    }


def test_the_family_is_prelu_and_gemm():
    assert sorted(c.id[len(FAMILY) :] for c in registry() if c.id.startswith(FAMILY)) == ["gemm", "prelu"]


@pytest.mark.parametrize("name", ["gemm", "prelu"])
def test_the_forms_are_valid_and_agree(name):
    case = _case(name)
    models = [case.forms[f].build() for f in case.forms]
    feeds = _feeds(models[0])
    got = []
    for m in models:
        onnx.checker.check_model(m, full_check=True)
        got.append(ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0])
    assert got[0].shape == (2, 3)
    for other in got[1:]:
        np.testing.assert_allclose(other, got[0], rtol=1e-5, atol=1e-5)


def test_the_prelu_base_meets_the_expand_rule():
    from passcheck.coverage.onnxscript import triggers

    case = _case("prelu")
    assert "onnxscript:rule:ExpandFirst_PRelu" in triggers(case.forms["common"].build())


def test_a_run_reports_the_rule_output_invalid_and_names_row_1059(tmp_path):
    from passcheck.cli import main
    from passcheck.hunt import documented

    out = tmp_path / "run.json"
    main(["run", "--case", FAMILY + "prelu:common", "--pass", "onnxscript:rewrite-opt-in", "--json", str(out), "-q"])
    cells = [r for r in json.loads(out.read_text())["results"] if r.get("pass_id") == "onnxscript:rewrite-opt-in"]
    assert len(cells) == 1, cells
    finding = next(f for f in cells[0]["findings"] if f["oracle"] == "validity")
    assert finding["kind"] == "invalid-model"
    rule = next(documented.rules(e)[0] for e in documented.entries() if e["row"] == "1059")
    sig = {"pass_id": "onnxscript:rewrite-opt-in", "oracle": "validity", "kind": "invalid-model", "ops": ["PRelu"]}
    assert documented.matches(rule, sig, finding["message"])
