"""Each rewrite on a small model: where it applies, nothing else changes, the gate accepts it, and
its inverse brings the original back."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from passcheck.engine import seed_for
from passcheck.mutations import REWRITES, mutants, verify_equivalent
from passcheck.runtime import default_bindings, synthesize

_spec = importlib.util.spec_from_file_location("mutation_models", Path(__file__).with_name("_models.py"))
M = importlib.util.module_from_spec(_spec)
sys.modules["mutation_models"] = M
_spec.loader.exec_module(M)


def feeds(model):
    return [synthesize(model, b, seed_for("t", i)) for i, b in enumerate(default_bindings(model))]


def by_name(model):
    return {n.name: n.SerializeToString(deterministic=True) for n in model.graph.node}


def untouched_nodes_identical(original, mutant, sites):
    before, after = by_name(original), by_name(mutant)
    for name, data in before.items():
        if name not in sites and name in after:
            assert after[name] == data, f"node {name} changed though the rewrite did not name it"


# (rewrite id, model, expected sites, the inverse undoes it byte for byte)
CASES = [
    ("empty-optional-input", M.OPTIONAL, ["n0", "n2"], True),
    ("omitted-optional-input", M.OPTIONAL, ["n3"], True),
    ("shape-start-end", M.SHAPE_SLICE, ["n0", "n3", "n4", "n6"], False),
    ("shape-then-slice", M.SHAPE_ATTRS, ["n0", "n1"], True),
    ("constant-typed-attr", M.CONSTANTS, ["n0", "n1"], False),
    ("initializer-to-constant", M.INITIALIZERS, ["k"], True),
    ("typed-data", M.INITIALIZERS, ["bias", "k"], True),
    ("negative-axes", M.AXES, ["n0"], True),
    ("positive-axes", M.AXES, ["n1"], True),
    ("explicit-defaults", M.DEFAULTS, ["n0"], True),
    ("reverse-topo-order", M.BRANCHES, ["n0", "n1"], False),
    ("inferred-value-info", M.BRANCHES, ["a", "b"], True),
    ("identity-edges", M.EDGES, ["n0", "n1"], False),
]


@pytest.mark.parametrize(("rid", "build", "sites", "round_trip"), CASES, ids=[c[0] for c in CASES])
def test_rewrite(rid, build, sites, round_trip):
    original = build()
    before = original.SerializeToString(deterministic=True)
    got = REWRITES[rid].apply(original)
    assert original.SerializeToString(deterministic=True) == before, "apply must not touch its input"
    assert got is not None
    mutant, applied = got
    assert (applied.rewrite, list(applied.nodes), applied.count) == (rid, sites, len(sites))
    assert mutant.SerializeToString(deterministic=True) != before
    untouched_nodes_identical(original, mutant, sites)
    verify_equivalent(original, mutant, feeds(original), rid)
    inverse = REWRITES[rid].inverse
    if round_trip:
        # the inverse normalizes: inverse(rewrite(m)) == inverse(m), or m where the inverse finds nothing
        back, _ = REWRITES[inverse].apply(mutant)
        normal = REWRITES[inverse].apply(original)
        expected = normal[0] if normal else original
        assert back.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True)


def test_shape_start_end_details():
    mutant, _ = REWRITES["shape-start-end"].apply(M.SHAPE_SLICE())
    ops = [(n.op_type, {a.name: a.i for a in n.attribute}) for n in mutant.graph.node if n.op_type in ("Shape", "Slice", "Gather", "Squeeze", "Constant")]
    # the sliced Shape takes start/end, the scalar Gather becomes Shape(-1) + Squeeze; unused Constants go;
    # the Shape that is itself a graph output stays whole
    assert ops == [("Shape", {"start": 1, "end": 3}), ("Shape", {"start": -1}), ("Squeeze", {}), ("Shape", {})]


def test_shape_round_trip_from_slice_form():
    original = M.SHAPE_ATTRS()
    sliced, _ = REWRITES["shape-then-slice"].apply(original)
    assert [n.op_type for n in sliced.graph.node].count("Slice") == 2


def test_constant_typed_attr_round_trip_by_value():
    original = M.CONSTANTS()
    typed, _ = REWRITES["constant-typed-attr"].apply(original)
    assert [n.attribute[0].name for n in typed.graph.node[:3]] == ["value_ints", "value_float", "value"]
    back, applied = REWRITES["constant-value-tensor"].apply(typed)
    assert list(applied.nodes) == ["n0", "n1"]
    for a, b in zip(original.graph.node[:3], back.graph.node[:3]):
        assert b.attribute[0].name == "value"
        np.testing.assert_array_equal(numpy_helper.to_array(a.attribute[0].t), numpy_helper.to_array(b.attribute[0].t))
        assert numpy_helper.to_array(a.attribute[0].t).dtype == numpy_helper.to_array(b.attribute[0].t).dtype


def test_constant_to_initializer_needs_ir4():
    m, _ = REWRITES["initializer-to-constant"].apply(M.INITIALIZERS())
    m.ir_version = 3
    assert REWRITES["constant-to-initializer"].apply(m) is None


def test_inferred_then_stripped():
    filled, _ = REWRITES["inferred-value-info"].apply(M.BRANCHES())
    assert REWRITES["inferred-value-info"].apply(filled) is None
    stripped, applied = REWRITES["no-value-info"].apply(filled)
    assert list(applied.nodes) == ["a", "b"] and not stripped.graph.value_info


def test_identity_keeps_graph_output_producer():
    mutant, _ = REWRITES["identity-edges"].apply(M.EDGES())
    assert [(n.op_type, list(n.input), list(n.output)) for n in mutant.graph.node] == [
        ("Relu", ["x"], ["a"]), ("Identity", ["a"], ["a_identity"]), ("Neg", ["a_identity"], ["y"])]


def test_topo_order_single_order_does_not_apply():
    assert REWRITES["reverse-topo-order"].apply(M.CHAIN()) is None


def test_topo_order_respects_subgraph_reads():
    m = M.named("""g (float[2] x, bool c) => (float[2] y) {
        a = Relu(x)
        b = Neg(x)
        y = If(c) <then_branch = t () => (float[2] o) { o = Identity(a) }, else_branch = e () => (float[2] o) { o = Identity(b) }>
    }""", opset=13)
    mutant, _ = REWRITES["reverse-topo-order"].apply(m)
    assert [n.op_type for n in mutant.graph.node] == ["Neg", "Relu", "If"]


def test_nothing_applies_to_a_bare_model():
    m = M.named("""g (double[2] x) => (double[2] y) { y = Relu(x) }""", opset=13)  # double: no float64-compute form either
    assert set(mutants(m)) == {"inferred-value-info"} or mutants(m) == {}
