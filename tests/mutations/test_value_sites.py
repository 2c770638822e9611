"""Value and edge sites (:mod:`passcheck.mutations._value_sites`) as a rewrite that routes a value through
one op uses them: labels ``VALUE`` and ``VALUE->READER`` with no step names, each single site through
the equivalence gate (real onnx checker and onnxruntime runs), and the rewrite's own signature hook."""

from __future__ import annotations

import mutation_models as M  # beside this file, loaded by conftest.py

from passcheck.engine import seed_for
from passcheck.mutations import verify_equivalent
from passcheck.mutations._base import Rewrite
from passcheck.mutations._value_sites import insert, inserted
from passcheck.mutations.neutral import _cast
from passcheck.mutations.sites import site_signatures
from passcheck.runtime import default_bindings, synthesize

#: x is read by Relu (n0) and Mul (n3); y is a graph output and read by Neg (n4).
MODEL = M.named(
    """g (float[2, 3] x) => (float[2, 3] z, float[2, 3] y) {
    r = Relu(x)
    one = Constant<value = float {1.0}>()
    s = Add(r, one)
    y = Mul(x, s)
    z = Neg(y)
}""",
    opset=13,
)
CAST = Rewrite(
    "test-through-cast",
    "a value x → Cast(x, to=its own type), on the value or on one edge",
    lambda model, only=None: insert(model, only, [("cast", _cast)], edges=True),
    detail="values",
    site_signature=inserted("Cast"),
)


def test_value_and_edge_sites_without_step_names():
    assert CAST.sites(MODEL) == ["x", "x->n0", "x->n3", "r", "s", "y", "y->n4", "z"]


def test_each_value_and_edge_site_passes_the_gate():
    runs = [synthesize(MODEL, b, seed_for("t", i)) for i, b in enumerate(default_bindings(MODEL))]
    for label in CAST.sites(MODEL):
        mutant, applied = CAST.apply(MODEL, [label])
        assert list(applied.nodes) == [label]
        verify_equivalent(MODEL, mutant, runs, f"{CAST.id}@{label}")
    edge, _ = CAST.apply(MODEL, ["x->n3"])
    readers = {n.name: list(n.input) for n in edge.graph.node}
    assert readers["n0"] == ["x"] and readers["n3"][0] != "x"  # only the Mul reads the Cast


def test_the_hook_puts_the_inserted_op_among_the_readers():
    signatures = site_signatures(MODEL)
    assert CAST.signature("x", signatures) == ("value", "input", ("Cast", "Mul", "Relu"))
    assert CAST.signature("x->n3", signatures) == ("value", "input", ("Cast", "Mul"))
    assert CAST.signature("y->n4", signatures) == ("value", "Mul", ("Cast", "Neg"))
    assert CAST.signature("nowhere", signatures) == "nowhere"
