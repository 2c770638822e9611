"""Each rewrite on a small model: where it applies, nothing else changes, the gate accepts it, and
its inverse brings the original back."""

from __future__ import annotations

from pathlib import Path

import mutation_models as M  # beside this file, loaded by conftest.py
import numpy as np
import onnx
import pytest
from onnx import numpy_helper

from passcheck.engine import seed_for
from passcheck.mutations import REWRITES, mutants, verify_equivalent
from passcheck.runtime import default_bindings, synthesize


def feeds(model):
    return [synthesize(model, b, seed_for("t", i)) for i, b in enumerate(default_bindings(model))]


def by_name(model):
    return {n.name: n.SerializeToString(deterministic=True) for n in model.graph.node}


def untouched_nodes_identical(original, mutant, sites, also=()):
    before, after = by_name(original), by_name(mutant)
    for name, data in before.items():
        if name not in sites and name not in also and name in after:
            assert after[name] == data, f"node {name} changed though the rewrite did not name it"


# nodes a rewrite may change besides its sites (the readers it absorbs or reroutes)
ALSO = {
    "shape-start-end": ("n3", "n6"),
    "identity-edges": ("n1",),
    "implicit-broadcast": ("n0", "n1", "n3", "n4"),
    "unsqueeze-keepdims": ("n1",),
}

# (rewrite id, model, expected sites, the inverse undoes it byte for byte)
CASES = [
    ("empty-optional-input", M.OPTIONAL, ["n0", "n2"], True),
    ("omitted-optional-input", M.OPTIONAL, ["n3"], True),
    ("shape-start-end", M.SHAPE_SLICE, ["n0", "n4"], False),
    ("shape-then-slice", M.SHAPE_ATTRS, ["n0", "n1"], True),
    ("constant-typed-attr", M.CONSTANTS, ["n0", "n1"], False),
    ("initializer-to-constant", M.INITIALIZERS, ["k"], True),
    ("typed-data", M.INITIALIZERS, ["bias", "k"], True),
    ("negative-axes", M.AXES, ["n0"], True),
    ("positive-axes", M.AXES, ["n1"], True),
    ("explicit-defaults", M.DEFAULTS, ["n0"], True),
    ("reverse-topo-order", M.BRANCHES, ["n0", "n1"], False),
    ("inferred-value-info", M.BRANCHES, ["a", "b"], True),
    ("identity-edges", M.EDGES, ["a"], False),
    ("commute-operands", M.COMMUTE, ["n0", "n1", "n4"], False),
    ("explicit-broadcast", M.BROADCAST, ["n0", "n1"], True),
    ("explicit-broadcast", M.SAME_RANK, ["n0"], True),
    ("implicit-broadcast", M.UNSQUEEZED, ["n2", "n5"], False),
    ("keepdims-unsqueeze", M.REDUCE, ["n0", "n1"], False),
    ("unsqueeze-keepdims", M.REDUCED, ["n0"], False),
]


IDS = [c[0] + ("-expand" if c[1] is M.SAME_RANK else "") for c in CASES]


@pytest.mark.parametrize(("rid", "build", "sites", "round_trip"), CASES, ids=IDS)
def test_rewrite(rid, build, sites, round_trip):
    original = build()
    before = original.SerializeToString(deterministic=True)
    got = REWRITES[rid].apply(original)
    assert original.SerializeToString(deterministic=True) == before, "apply must not touch its input"
    assert got is not None
    mutant, applied = got
    assert (applied.rewrite, list(applied.nodes), applied.count) == (rid, sites, len(sites))
    assert mutant.SerializeToString(deterministic=True) != before
    untouched_nodes_identical(original, mutant, sites, ALSO.get(rid, ()))
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
    ops = [
        (n.op_type, {a.name: a.i for a in n.attribute})
        for n in mutant.graph.node
        if n.op_type in ("Shape", "Slice", "Gather", "Squeeze", "Constant")
    ]
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
        ("Relu", ["x"], ["a"]),
        ("Identity", ["a"], ["a_identity"]),
        ("Neg", ["a_identity"], ["y"]),
    ]


def test_topo_order_single_order_does_not_apply():
    assert REWRITES["reverse-topo-order"].apply(M.CHAIN()) is None


def test_topo_order_respects_subgraph_reads():
    m = M.named(
        """g (float[2] x, bool c) => (float[2] y) {
        a = Relu(x)
        b = Neg(x)
        y = If(c) <then_branch = t () => (float[2] o) { o = Identity(a) },
                   else_branch = e () => (float[2] o) { o = Identity(b) }>
    }""",
        opset=13,
    )
    mutant, _ = REWRITES["reverse-topo-order"].apply(m)
    assert [n.op_type for n in mutant.graph.node] == ["Neg", "Relu", "If"]


#: Modules of the IR-level freedoms every model has (names, documentation, metadata, opset imports,
#: IR version, value types, node-as-function, the output's producer, a node inside an If or a Loop,
#: type and dimension denotations, the graph's depth): they apply to any model.
EVERY_MODEL = {
    "names",
    "docs_meta",
    "list_order",
    "domains",
    "ir_version",
    "value_types",
    "local_functions",
    "graphs_attribute",  # as local_functions: any default-domain node with a typed input
    "graph_outputs",
    "into_subgraph",
    "denotations",
    "deep_chain",
    "derived_names",
}


def test_nothing_applies_to_a_bare_model():
    m = M.named(
        """g (double[2] x) => (double[2] y) { y = Relu(x) }""", opset=13
    )  # double: no float64-compute form either
    every = {r.id for r in REWRITES.values() if r.edit.__module__.rsplit(".", 1)[-1] in EVERY_MODEL}
    neutral = {"neutral-elementwise", "neutral-shape-ops", "neutral-one-input-variadic", "neutral-where-not"}
    neutral |= {"neutral-op", "transpose-identity"}  # one op (or the identity Transpose) on any value
    neutral |= {"extra-readers"}  # Max(v, Identity(v)) on any value of a type Max takes
    neutral |= {"through-sequence", "through-optional", "through-optional-identity"}  # any value, opset >= 11/15/16
    neutral |= {"rank-opaque-view"}  # any computed or fed value a node reads, opset >= 6
    neutral |= {"unused-default-input"}  # an input nothing reads, with its default, fits any graph (IR >= 4)
    neutral |= {"node-names-as-values", "graph-names-as-values"}  # any node or graph may take a value's name (M397)
    relu = {"relu-as-max", "relu-as-clip"}  # its one node is a Relu (a neutral op fits on any value)
    relu |= {"unary-raised-rank"}  # Relu is a unary elementwise op of known rank
    relu |= {"opset-stamp-below"}  # Relu-13 only added bfloat16: the stamp moves below it (Versioning.md, M281)
    relu |= {"opset-stamp-above"}  # Relu-14 only added types: the stamp moves above it (M315)
    assert set(mutants(m)) - every - neutral - relu == set()


@pytest.mark.parametrize(("rid", "build", "sites", "round_trip"), CASES, ids=IDS)
def test_rewrite_site_by_site(rid, build, sites, round_trip):
    """sites() names the sites apply() changes; apply(sites=[s]) changes exactly s and passes the gate."""
    original = build()
    r = REWRITES[rid]
    assert r.sites(original) == sites
    assert r.apply(original, sites=[]) is None and r.apply(original, sites=["no-such-site"]) is None
    for site in sites:
        got = r.apply(original, sites=[site])
        if got is None:
            assert rid == "reverse-topo-order"  # a node already right before its first reader does not move
            continue
        mutant, applied = got
        assert list(applied.nodes) == [site]
        untouched_nodes_identical(original, mutant, [site], ALSO.get(rid, ()))
        verify_equivalent(original, mutant, feeds(original), f"{rid}@{site}")


def _ops(m):
    return [
        (
            n.op_type,
            {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute if a.name != "value"},
            len(n.input),
        )
        for n in m.graph.node
    ]


def test_keepdims_round_trip_and_axes_spellings():
    original = M.REDUCE()
    split, _ = REWRITES["keepdims-unsqueeze"].apply(original)
    # opset 13: ReduceMean keeps its axes attribute, Unsqueeze takes a Constant; ReduceSum's axes input is shared
    assert _ops(split) == [
        ("ReduceMean", {"axes": [1], "keepdims": 0}, 1),
        ("Constant", {}, 0),
        ("Unsqueeze", {}, 2),
        ("ReduceSum", {"keepdims": 0}, 2),
        ("Unsqueeze", {}, 2),
    ]
    assert split.graph.node[4].input[1] == "ax"
    back, applied = REWRITES["unsqueeze-keepdims"].apply(split)
    assert list(applied.nodes) == ["n0", "n1"] and _ops(back) == [
        ("ReduceMean", {"axes": [1]}, 1),
        ("ReduceSum", {}, 2),
    ]
    assert [o.name for o in back.graph.output] == ["m", "s"] and [n.output[0] for n in back.graph.node] == ["m", "s"]


def test_unsqueeze_keepdims_matches_axes_by_rank_and_leaves_others():
    m = M.REDUCED()  # ReduceMean axes [-2] against Unsqueeze axes [1] (rank 3): the same axis
    merged, _ = REWRITES["unsqueeze-keepdims"].apply(m)
    assert _ops(merged) == [("ReduceMean", {"axes": [-2]}, 1), ("ReduceMax", {"axes": [2], "keepdims": 0}, 1)]
    m.graph.node[1].attribute[0].ints[0] = 2  # an Unsqueeze of another axis: not the keepdims spelling
    assert REWRITES["unsqueeze-keepdims"].apply(m) is None


def test_implicit_broadcast_keeps_what_changes_the_shape():
    mutant, _ = REWRITES["implicit-broadcast"].apply(M.UNSQUEEZED())
    assert _ops(mutant) == [("Add", {}, 2), ("Mul", {}, 2)]  # both Constants, the Unsqueeze and the Expand are gone
    m = M.named(
        """g (float[4] x, float[4] b) => (float[1, 4] y) {
        ax = Constant<value = int64[1] {0}>()
        u = Unsqueeze(b, ax)
        y = Add(x, u)
    }""",
        opset=13,
    )  # dropping u would make y rank 1
    assert REWRITES["implicit-broadcast"].apply(m) is None


def test_commute_leaves_legacy_broadcast_alone():
    m = onnx.load(
        Path(onnx.__file__).parent / "backend/test/data/pytorch-operator/test_operator_add_broadcast/model.onnx"
    )
    assert [(n.op_type, n.attribute[0].name) for n in m.graph.node] == [("Add", "broadcast")]  # opset 6: B onto A only
    assert REWRITES["commute-operands"].apply(m) is None


def test_explicit_broadcast_expands_a_same_rank_operand():
    mutant, _ = REWRITES["explicit-broadcast"].apply(M.SAME_RANK())
    assert _ops(mutant) == [("Constant", {}, 0), ("Expand", {}, 2), ("Mul", {}, 2), ("Add", {}, 2)]
    assert onnx.numpy_helper.to_array(mutant.graph.node[0].attribute[0].t).tolist() == [2, 3]


def test_keepdims_unsqueeze_reduces_every_axis_when_axes_are_omitted():
    # Operators.md ReduceSum-13 / Reduce*-18: axes omitted with noop_with_empty_axes 0 reduces every axis, so the
    # Unsqueeze puts back [0 … r-1]; noop_with_empty_axes 1 (the identity) and an unknown rank are no sites
    from onnx import numpy_helper

    from passcheck.cases.builders import parse

    original = parse(
        """g (float[2, 3, 4] x, float[N, 3] z, float[2, 3] w) => (float[1, 1, 1] a, float[1, 1] b, float[2, 3] c,
        float[1, 1, 1] d, float[1, 1] e) {
    a = ReduceSum(x)
    b = ReduceMax(z)
    c = ReduceSum<noop_with_empty_axes = 1>(w)
    d = ReduceSum(x, "")
    u = Identity(w)
    e = ReduceSum(u)
}""",
        opset=13,
    )
    for i, n in enumerate(original.graph.node):
        n.name = f"n{i}"
    split, applied = REWRITES["keepdims-unsqueeze"].apply(original)
    assert list(applied.nodes) == ["n0", "n1", "n3", "n5"]
    axes = {
        n.output[0]: numpy_helper.to_array(n.attribute[0].t).tolist()
        for n in split.graph.node
        if n.op_type == "Constant"
    }
    unsq = {n.output[0]: axes[n.input[1]] for n in split.graph.node if n.op_type == "Unsqueeze"}
    assert unsq == {"a": [0, 1, 2], "b": [0, 1], "d": [0, 1, 2], "e": [0, 1]}
    sums = [n for n in split.graph.node if n.op_type == "ReduceSum" and n.output[0] != "c"]
    assert all(len([i for i in n.input if i]) == 1 for n in sums)  # the Reduce keeps its axes omitted
    verify_equivalent(original, split, feeds(original), "keepdims-unsqueeze")
    back, again = REWRITES["unsqueeze-keepdims"].apply(split)
    assert list(again.nodes) == ["n0", "n1", "n3", "n5"]
    assert [n.op_type for n in back.graph.node] == [n.op_type for n in original.graph.node]
