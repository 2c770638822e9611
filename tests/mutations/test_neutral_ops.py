"""``neutral-op``: one neutral op on one value or one edge, each site through the equivalence gate
(real onnx checker and onnxruntime runs), and the single-site forms a pass's matcher sees alone."""

from __future__ import annotations

import mutation_models as M  # beside this file, loaded by conftest.py
import onnx
import pytest

from passcheck.engine import seed_for
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.neutral_ops import NAMES
from passcheck.mutations.registry import mutants
from passcheck.mutations.sites import site_signatures
from passcheck.runtime import default_bindings, synthesize

R = REWRITES["neutral-op"]

#: x read by two nodes (Relu and Mul): value sites and one edge site per reader.
SHARED = lambda opset: M.named(  # noqa: E731
    """g (float[2, 3] x) => (float[2, 3] y) {
    r = Relu(x)
    one = Constant<value = float {1.0}>()
    b = Add(r, one)
    d = Div(one, b)
    s = Mul(x, d)
    y = Neg(s)
}""",
    opset=opset,
)
BOOLS = lambda: M.named(  # noqa: E731
    """g (bool[2, 3] p, bool[2, 3] q) => (bool[2, 3] y) {
    a = And(p, q)
    y = Not(a)
}""",
    opset=18,
)


def feeds(model):
    return [synthesize(model, b, seed_for("t", i)) for i, b in enumerate(default_bindings(model))]


def _ops(model):
    return [n.op_type for n in model.graph.node]


def test_every_op_has_a_site_on_a_float_or_bool_model():
    names = {label.rpartition(":")[2] for label in R.sites(SHARED(18)) + R.sites(BOOLS())}
    assert names == set(NAMES)


@pytest.mark.parametrize("opset", [13, 18])
def test_each_single_site_passes_the_gate(opset):
    """Every (value, op) and (edge, op) site of the model, one at a time, is valid and computes the same."""
    original = SHARED(opset)
    labels = R.sites(original)
    assert "x:cast-same" in labels and "x->n4:cast-same" in labels and "x->n0:cast-same" in labels
    assert not any(label.startswith(("one:", "one->")) for label in labels)  # computed from constants alone
    runs = feeds(original)
    for label in labels:
        mutant, applied = R.apply(original, [label])
        assert list(applied.nodes) == [label]
        verify_equivalent(original, mutant, runs, f"neutral-op@{label}")


def test_all_at_once_passes_the_gate():
    original = SHARED(18)
    mutant, applied = R.apply(original)
    assert len(applied.nodes) == len(R.sites(original))
    verify_equivalent(original, mutant, feeds(original), "neutral-op")


def test_an_edge_site_changes_only_that_reader():
    mutant, _ = R.apply(SHARED(18), ["x->n4:cast-same"])
    nodes = {n.name: n for n in mutant.graph.node}
    cast = next(n for n in mutant.graph.node if n.op_type == "Cast")
    assert list(cast.input) == ["x"] and onnx.helper.get_attribute_value(cast.attribute[0]) == onnx.TensorProto.FLOAT
    assert nodes["n4"].input[0] == cast.output[0]  # Mul reads the Cast
    assert list(nodes["n0"].input) == ["x"]  # Relu still reads x
    assert _ops(mutant)[0] == "Cast"  # right after the value (a graph input: first)


def test_a_value_site_feeds_every_reader_and_keeps_graph_output_names():
    model = M.named(
        """g (float[2, 3] x) => (float[2, 3] y, float[2, 3] a) {
    a = Relu(x)
    y = Neg(a)
}""",
        opset=13,
    )
    mutant, _ = R.apply(model, ["a:dropout-inference"])
    assert [o.name for o in mutant.graph.output] == ["y", "a"]
    producer = {o: n for n in mutant.graph.node for o in n.output}
    assert producer["a"].op_type == "Dropout" and producer[producer["a"].input[0]].op_type == "Relu"
    assert "a->n1:dropout-inference" in R.sites(model)  # a is read and a graph output: an edge site too
    verify_equivalent(model, mutant, feeds(model), "neutral-op@a:dropout-inference")


def test_no_op_is_offered_where_the_schema_does_not_take_the_type():
    labels = R.sites(BOOLS())
    assert "p:and-true" in labels and "p:not-not" in labels
    float_only = (":add-zero", ":div-one", ":dropout-inference", ":clip-unbounded")
    assert not any(label.endswith(float_only) for label in labels)
    older = R.sites(SHARED(11))
    assert not any(label.endswith((":castlike-self", ":dropout-inference", ":reduce-max-noop")) for label in older)


def test_site_signatures_name_the_inserted_op_and_the_edge_reader():
    signatures = site_signatures(SHARED(18))
    assert R.signature("x->n4:cast-same", signatures) == ("value", "input", ("Cast", "Mul"))
    assert R.signature("x:cast-same", signatures) == ("value", "input", ("Cast", "Mul", "Relu"))
    assert R.signature("x->n0:pad-zeros", signatures) == ("value", "input", ("Pad", "Relu"))
    assert R.signature("x:no-such-op", signatures) == "x:no-such-op"  # no entry, no hook answer: the label
    assert R.signature("x", signatures) == signatures["x"]  # a plain value: the shared map's entry


def test_one_site_per_signature_groups_by_the_rewrites_own_hook():
    """``iter_mutants`` keys ``neutral-op``'s sites by its hook: one single-site form per (value or edge,
    inserted op) signature, not one per label."""
    model = SHARED(18)
    budget: dict = {}
    forms = mutants(model, ["neutral-op"], max_sites=10_000, budget=budget)
    labels = R.sites(model)
    keys = {R.signature(x, site_signatures(model)) for x in labels}
    assert budget["neutral-op"] == (len(keys), len(keys), len(labels)) and len(keys) < len(labels)
    assert len(forms) == 1 + len(keys)
