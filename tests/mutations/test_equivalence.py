"""The equivalence gate, unknown ids, bad input, and the rewrites on a real model from the onnx wheel."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest

from passcheck.cases.builders import parse
from passcheck.errors import PasscheckError, PasscheckInternalError, UnknownIdError
from passcheck.mutations import Rewrite, check_input, mutants, mutation_subject, verify_equivalent
from passcheck.mutations.subject import feeds_for
from passcheck.runtime import default_bindings

DATA = Path(onnx.__file__).parent / "backend/test/data"
SMALL = """g (float[N, 3] x) => (float[N, 3] y) { a = Relu(x)  y = Neg(a) }"""


def _small():
    return parse(SMALL, opset=13)


def _relu_to_sigmoid(m, only=None):
    for n in m.graph.node:
        if n.op_type == "Relu":
            n.op_type = "Sigmoid"
            return [n.name or "relu"]
    return []


def _drop_producer(m, only=None):
    del m.graph.node[0]
    return ["first"]


@pytest.mark.parametrize(("edit", "why"), [(_relu_to_sigmoid, "differs"), (_drop_producer, "")])
def test_gate_catches_a_wrong_rewrite(edit, why):
    m = _small()
    bad = Rewrite("bad-rewrite", "deliberately wrong", edit)
    mutant, _ = bad.apply(m)
    with pytest.raises(PasscheckInternalError, match="bad-rewrite") as err:
        verify_equivalent(m, mutant, feeds_for(m, "t", default_bindings(m)), bad.id)
    assert why in str(err.value)
    assert not isinstance(err.value, PasscheckError)  # a passcheck bug, never an input error or a finding


def test_gate_catches_a_changed_interface():
    m = _small()
    mutant = onnx.ModelProto()
    mutant.CopyFrom(m)
    mutant.graph.output[0].name = "a"
    del mutant.graph.node[1]
    with pytest.raises(PasscheckInternalError, match="inputs/outputs changed"):
        verify_equivalent(m, mutant, feeds_for(m, "t", default_bindings(m)), "renamer")


def test_unknown_form_id():
    with pytest.raises(UnknownIdError, match="negative-axes"):
        mutants(_small(), ["negativ-axes"])


def test_checker_failure_is_an_input_error():
    m = _small()
    m.graph.node[1].input[0] = "nowhere"
    with pytest.raises(PasscheckError, match="fails the ONNX checker"):
        check_input(m, "bad.onnx")


def test_resnet50_mutants_are_verified_and_name_the_convs():
    model = onnx.load(DATA / "light/light_resnet50.onnx")
    # rewrites of the ops a ResNet is made of (every rewrite through the gate on a real net:
    # tests/mutations/test_backend_models.py's light net)
    picked = ["empty-optional-input", "commute-operands", "gemm-to-matmul-add", "auto-pad-named", "relu-as-max"]
    subject, applied = mutation_subject(model, "light_resnet50", picked)
    assert list(subject.forms) == ["common", *picked] and sorted(applied) == sorted(picked)
    convs = [n.name for n in model.graph.node if n.op_type == "Conv"]
    assert list(applied["empty-optional-input"].nodes) == convs and len(convs) == 53
    assert all(
        len(n.input) == 3 and n.input[2] == ""
        for n in subject.forms["empty-optional-input"].graph.node
        if n.op_type == "Conv"
    )


@pytest.mark.parametrize(
    ("path", "rewrite", "inverse"),
    [
        ("light/light_shufflenet.onnx", "commute-operands", None),
        ("light/light_inception_v2.onnx", "explicit-broadcast", "implicit-broadcast"),
        ("pytorch-operator/test_operator_reduced_mean_keepdim/model.onnx", "keepdims-unsqueeze", "unsqueeze-keepdims"),
    ],
    ids=["commute-shufflenet", "broadcast-inception-v2", "keepdims-pytorch-reduced-mean"],
)
def test_site_rewrites_pass_the_gate_on_real_models(path, rewrite, inverse):
    """Every site form (all at once, single sites) and the inverse of the all-at-once form are
    verified equivalent on a model from the onnx wheel."""
    model = onnx.load(DATA / path)
    feeds = feeds_for(model, "t", default_bindings(model))
    made = mutants(model, [rewrite], max_sites=2)
    assert rewrite in made
    for form, (mutant, _) in made.items():
        verify_equivalent(model, mutant, feeds, form)
    if inverse:
        back = mutants(made[rewrite][0], [inverse])[inverse][0]
        verify_equivalent(model, back, feeds, inverse)
        assert len(back.graph.node) == len(model.graph.node)
