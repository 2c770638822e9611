"""What check and compare decide lives in passcheck.plans; the doors only translate and render."""

from __future__ import annotations

import os

import pytest

from passcheck import plans
from passcheck.cases.builders import FLOAT, model, node, vi
from passcheck.errors import PasscheckError


def _relu(name="y"):
    return model([node("Relu", ["x"], [name])], [vi("x", FLOAT, [2, 3])], [vi(name, FLOAT, [2, 3])], opset=13)


def test_compare_seeds_the_gate_with_the_runs_subject_id(monkeypatch):
    import passcheck.mutations.subject as subject

    seen = []
    real = subject.feeds_for
    monkeypatch.setattr(subject, "feeds_for", lambda m, sid, b: seen.append(sid) or real(m, sid, b))
    a, b = _relu(), _relu()
    name, name_a, name_b, repro, _ = plans.compare_plan("My Model.onnx", "b.onnx", a, b, {})
    plans.equivalence_gate("My Model.onnx", "b.onnx", a, b, name, {}, None)
    assert seen == ["model/my-model"]  # the id check_model reports the run under, not "model/My Model"
    assert (name_a, name_b) == ("My-Model", "b") and repro.startswith("passcheck compare ")


def test_compare_refuses_other_outputs_and_check_refuses_mutation_flags_alone():
    with pytest.raises(PasscheckError, match="do not match"):
        plans.compare_plan("a.onnx", "b.onnx", _relu(), _relu("z"), {})
    with pytest.raises(PasscheckError, match="--depth needs --mutations"):
        plans.refuse_mutation_flags(False, [], None, 2)


def _relu_dims(dims):
    return model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, dims)], [vi("y", FLOAT, dims)], opset=13)


def test_compare_feeds_a_symbol_the_number_the_other_model_states_and_refuses_two_numbers():
    # IR.md §Static tensor shapes: a feed must satisfy both models' input declarations
    *_, bind = plans.compare_plan("a.onnx", "b.onnx", _relu_dims(["N", 3]), _relu_dims([4, 3]), {})
    assert bind == {"N": 4}
    *_, bind = plans.compare_plan("a.onnx", "b.onnx", _relu_dims([4, 3]), _relu_dims(["M", 3]), {})
    assert bind == {}  # b's symbol takes what a's declaration feeds
    with pytest.raises(PasscheckError, match=r"b.onnx: input 'x' axis 0 is 4 where a.onnx's is 2;"):
        plans.compare_plan("a.onnx", "b.onnx", _relu_dims([2, 3]), _relu_dims([4, 3]), {})
    with pytest.raises(PasscheckError, match=r"axis 0 is 4 where a.onnx's is 'N' = 5;"):
        plans.compare_plan("a.onnx", "b.onnx", _relu_dims(["N", 3]), _relu_dims([4, 3]), {"N": 5})
    with pytest.raises(PasscheckError, match=r"axis 1 is 3 where a.onnx's is 'N' = 2;"):
        plans.compare_plan("a.onnx", "b.onnx", _relu_dims(["N", "N"]), _relu_dims([2, 3]), {})


def test_repro_text_of_check():
    head = plans.check_head("m.onnx", {"N": 2}, synthesize_feeds=True)
    assert head == f"passcheck check {os.path.abspath('m.onnx')} --bind N=2 --synthesize-feeds"  # runs anywhere
    flags = "--mutations --max-sites 3 --depth 2 --form a@x --pass {pass}"
    assert plans.check_repro(head, True, 3, 2, ["a@x"]) == f"{head} {flags}"
    assert plans.form_repro(head, "a") == f"{head} --mutations --form a --max-sites 0 --pass {{pass}}"
