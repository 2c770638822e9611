"""Pins of oracle behaviour found unguarded by bench/mutation_score.py: numeric tolerances by
dtype and their boundary, NaN/±inf positions, exact dtypes, sequences; folding's static analysis
(shape-derived nodes, chains, symbols that never varied); the checker wrapper."""

from __future__ import annotations

import types

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.oracles import folding
from passcheck.oracles.numeric import compare, tolerance
from passcheck.oracles.validity import Checker, checker_error

# --- numeric.compare ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dtype", "rtol", "atol"),
    [("float64", 1e-6, 1e-8), ("float32", 1e-4, 1e-5), ("float16", 1e-2, 1e-3), ("int8", 1e-2, 1e-3)],
)
def test_tolerance_by_dtype_and_overrides(dtype, rtol, atol):
    assert tolerance(np.dtype(dtype)) == (rtol, atol)
    assert tolerance(np.dtype(dtype), rtol=0.5) == (0.5, atol)
    assert tolerance(np.dtype(dtype), atol=0.25) == (rtol, 0.25)


def test_bfloat16_is_judged_with_its_own_looser_tolerance():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    assert tolerance(np.dtype(ml_dtypes.bfloat16)) == (2e-2, 1e-2)
    e = np.array([1.0, 2.0], ml_dtypes.bfloat16)
    assert compare(e + np.array([0.0, 0.03], ml_dtypes.bfloat16), e).ok
    assert not compare(e + np.array([0.0, 0.25], ml_dtypes.bfloat16), e).ok


def test_error_equal_to_the_tolerance_passes_and_just_above_fails():
    # |a - e| <= atol + rtol * |e|, inclusive: 1e-8 - 0 is exactly float64's atol.
    assert compare(np.array([1e-8]), np.array([0.0])).ok
    assert not compare(np.array([3e-8]), np.array([0.0])).ok
    # the relative part scales with |expected|, not with |actual|
    assert compare(np.array([-1000.0005]), np.array([-1000.0])).ok
    assert not compare(np.array([-1000.01]), np.array([-1000.0])).ok


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_float_tolerance_is_per_dtype(dtype):
    e = np.linspace(-3, 3, 13).astype(dtype)
    r, _ = tolerance(np.dtype(dtype))
    assert compare(e * (1 + r / 4), e).ok
    assert not compare(e * (1 + r * 8) + r, e).ok


def test_mismatch_reports_errors_worst_elements_and_the_tolerance_used():
    e = np.array([[1.0, 2.0], [4.0, -8.0]], np.float32)
    a = e.copy()
    a[0, 1], a[1, 1] = 2.5, -8.2
    c = compare(a, e)
    assert not c.ok
    assert c.max_abs == pytest.approx(0.5)
    assert c.max_rel == pytest.approx(0.25)
    assert c.worst[0] == {"index": [0, 1], "actual": 2.5, "expected": 2.0}
    assert c.worst[1]["index"] == [1, 1]
    assert len(c.worst) == 4
    assert c.message.startswith("2 of 4 elements outside rtol=0.0001, atol=1e-05")
    assert "atol=0.5 would pass" in c.message
    ok = compare(a, e, atol=0.5)
    assert ok.ok and ok.max_abs == pytest.approx(0.5) and ok.message == ""
    assert compare(a, e, rtol=0.3).ok


def test_relative_error_where_expected_is_zero_is_huge_not_nan():
    c = compare(np.array([1.0, 1.0]), np.array([0.0, 1.0]))
    assert not c.ok
    assert np.isfinite(c.max_rel) and c.max_rel > 1e300
    assert c.max_abs == 1.0


def test_nan_positions_must_match():
    nan = np.nan
    assert compare(np.array([nan, 1.0], np.float32), np.array([nan, 1.0], np.float32)).ok
    c = compare(np.array([nan, 1.0]), np.array([1.0, nan]))
    assert not c.ok and c.message == "NaN positions differ (1 vs 1 NaNs)"
    c = compare(np.array([nan, nan]), np.array([nan, 1.0]))
    assert not c.ok and c.message == "NaN positions differ (2 vs 1 NaNs)"


def test_inf_positions_and_signs_must_match():
    inf = np.inf
    assert compare(np.array([inf, -inf, 1.0]), np.array([inf, -inf, 1.0])).ok
    assert compare(np.array([inf, 1.0]), np.array([inf, 1.0 + 1e-9])).ok
    # errors are measured on the finite positions only: matching infinities add no error
    c = compare(np.array([inf, -inf, 1.0, np.nan]), np.array([inf, -inf, 1.5, np.nan]))
    assert not c.ok and c.max_abs == 0.5 and c.max_rel == pytest.approx(1 / 3)
    for a, e in [([inf, 1.0], [1.0, inf]), ([inf], [-inf]), ([1.0, -inf], [1.0, 5.0])]:
        c = compare(np.array(a), np.array(e))
        assert not c.ok and c.message == "±inf positions differ", (a, e)


def test_integers_bools_and_strings_must_be_equal():
    c = compare(np.array([1, 2, 3], np.int32), np.array([1, 2, 4], np.int32))
    assert not c.ok
    assert c.message == "1 of 3 elements differ (exact dtype int32)"
    assert c.worst == [{"index": [2], "actual": 3, "expected": 4}]
    assert compare(np.array([7], np.int64), np.array([7], np.int64)).ok
    assert not compare(np.array([True, False]), np.array([True, True])).ok
    assert compare(np.array(["a", "b"], object), np.array(["a", "b"], object)).ok
    assert not compare(np.array(["a", "b"], object), np.array(["a", "c"], object)).ok
    many = compare(np.zeros(10, np.int8), np.ones(10, np.int8))
    assert len(many.worst) == 5 and many.message.startswith("10 of 10")


def test_shape_dtype_absence_and_sequences():
    f = np.zeros((2, 3), np.float32)
    assert compare(f, np.zeros((3, 2), np.float32)).message == "shape [2, 3] vs expected [3, 2]"
    assert compare(f, np.zeros((2, 3), np.float64)).message == "dtype float32 vs expected float64"
    assert compare(np.zeros((3, 2)), np.zeros((2, 3))).message == "shape [3, 2] vs expected [2, 3]"  # either order
    assert compare(None, None).ok
    c = compare(None, f)
    assert not c.ok and c.message == "absent vs float32[2, 3]"
    assert compare([f, f], [f, f]).ok
    assert compare([], []).ok
    assert compare([f], [f, f]).message == "sequence length/kind differs: sequence of 1 vs sequence of 2"
    assert not compare(f, [f]).ok and not compare([f], f).ok
    c = compare([f, f + 1], [f, f])
    assert not c.ok and c.message.startswith("element 1: 6 of 6 elements outside")


# --- folding: static analysis -------------------------------------------------------------------


def _shape_model(extra_nodes=(), dims=("N", 3)):
    """x[N, 3] → Shape → Gather(1) → Mul(k) ... plus Relu(x), all outputs of the graph."""
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], name="shape"),
        helper.make_node("Gather", ["s", "one"], ["d"], name="gather"),
        helper.make_node("Mul", ["d", "k"], ["dk"], name="mul"),
        helper.make_node("Relu", ["x"], ["r"], name="relu"),
        *extra_nodes,
    ]
    inits = [helper.make_tensor("one", TensorProto.INT64, [], [1]), helper.make_tensor("k", TensorProto.INT64, [], [2])]
    outs = [helper.make_tensor_value_info(n, TensorProto.INT64, None) for n in ("d", "dk")] + [
        helper.make_tensor_value_info("r", TensorProto.FLOAT, None)
    ]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(dims))], outs, inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_shape_derived_follows_shape_values_not_data():
    m = _shape_model(
        [
            helper.make_node("Add", ["dk", "d"], ["e"], name="add"),
            helper.make_node("Size", ["r"], ["z"], name="size"),
            helper.make_node("Add", ["one", "k"], ["c"], name="constants_only"),
        ]
    )
    got = [(i, n.name) for i, n in folding.shape_derived(m)]
    assert got == [(0, "shape"), (1, "gather"), (2, "mul"), (4, "add"), (5, "size")]
    assert folding.values_to_observe(m) == ["s", "d", "dk", "e", "z", "c"]  # and the constant-only Add (issue 18.2)


def test_random_ops_and_subgraphs_count_as_data():
    then = helper.make_graph(
        [helper.make_node("Identity", ["d"], ["t"])],
        "then",
        [],
        [helper.make_tensor_value_info("t", TensorProto.INT64, None)],
    )
    m = _shape_model(
        [
            helper.make_node("RandomUniformLike", ["dk"], ["rnd"], name="random", dtype=TensorProto.FLOAT),
            helper.make_node("Cast", ["rnd"], ["rc"], name="after_random", to=TensorProto.INT64),
            helper.make_node("If", ["cond"], ["w"], name="if", then_branch=then, else_branch=then),
        ]
    )
    m.graph.initializer.append(helper.make_tensor("cond", TensorProto.BOOL, [], [True]))
    names = [n.name for _, n in folding.shape_derived(m)]
    assert names == ["shape", "gather", "mul"]


def test_an_input_with_an_initializer_is_not_data():
    m = _shape_model([helper.make_node("Add", ["d", "bias"], ["db"], name="add_bias")])
    m.graph.input.append(helper.make_tensor_value_info("bias", TensorProto.INT64, []))
    m.graph.initializer.append(helper.make_tensor("bias", TensorProto.INT64, [], [5]))
    assert "add_bias" in [n.name for _, n in folding.shape_derived(m)]
    m.graph.initializer.pop()
    assert "add_bias" not in [n.name for _, n in folding.shape_derived(m)]


def _runs(*observed):
    return [types.SimpleNamespace(observed=o) for o in observed]


def test_foldable_names_only_the_first_node_of_each_invariant_chain():
    m = _shape_model()
    same = {"s": np.array([2, 3]), "d": np.array(3), "dk": np.array(6)}
    other = {"s": np.array([5, 3]), "d": np.array(3), "dk": np.array(6)}
    found = folding.foldable_nodes(m, _runs(same, other))
    assert [(i, n.name, [v.tolist() for v in vs]) for i, n, vs in found] == [(1, "gather", [3])]
    # when the Shape value itself is invariant, it heads the chain and nothing else is named
    assert [n.name for _, n, _ in folding.foldable_nodes(m, _runs(same, dict(same)))] == ["shape"]
    # a value missing from one run, or differing in dtype, is not invariant
    assert [n.name for _, n, _ in folding.foldable_nodes(m, _runs(same, {"s": other["s"], "d": np.array(3)}))] == [
        "gather"
    ]
    assert folding.foldable_nodes(m, _runs(same, {**other, "d": np.array(3, np.int32), "dk": np.array(7)})) == []


def test_invariant_rejects_non_arrays_and_large_values():
    big = np.zeros(folding.MAX_ELEMENTS + 1, np.int64)
    assert folding._invariant("v", _runs({"v": big}, {"v": big})) is None
    edge = np.zeros(folding.MAX_ELEMENTS, np.int64)
    assert folding._invariant("v", _runs({"v": edge}, {"v": edge})) is edge
    assert folding._invariant("v", _runs({"v": [1]}, {"v": [1]})) is None
    assert folding._invariant("v", _runs({"v": np.zeros(2)}, {"v": np.zeros(3)})) is None
    # the same numbers in another dtype are not invariant, whichever dtype came first
    assert folding._invariant("v", _runs({"v": np.array(3, np.int32)}, {"v": np.array(3, np.int64)})) is None
    assert folding._invariant("v", _runs({"v": np.array(3, np.int64)}, {"v": np.array(3, np.int32)})) is None


def test_dims_vary_needs_two_sizes_for_every_symbolic_dim():
    m = _shape_model(dims=("N", 3, None))

    def feeds(*shapes):
        return [{"x": np.zeros(s, np.float32)} for s in shapes]

    assert folding._dims_vary(m, feeds((2, 3, 2), (3, 3, 3)))
    assert not folding._dims_vary(m, feeds((2, 3, 2), (3, 3, 2)))  # the anonymous dim never varied
    assert not folding._dims_vary(m, feeds((2, 3, 2), (2, 3, 3)))
    static = _shape_model(dims=(4, 3))
    assert folding._dims_vary(static, feeds((4, 3), (4, 3)))
    # a symbolic input with an initializer (an overridable default) is not fed: it does not block
    m.graph.input.append(helper.make_tensor_value_info("w", TensorProto.FLOAT, ["M"]))
    m.graph.initializer.append(helper.make_tensor("w", TensorProto.FLOAT, [1], [0.0]))
    assert folding._dims_vary(m, feeds((2, 3, 2), (3, 3, 3)))


# --- validity.checker_error ---------------------------------------------------------------------


def test_checker_error_full_check_adds_shape_inference():
    def relu(out_type=TensorProto.FLOAT, src="x"):
        g = helper.make_graph(
            [helper.make_node("Relu", [src], ["y"])],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
            [helper.make_tensor_value_info("y", out_type, [2])],
        )
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])

    assert checker_error(relu()) is None
    err = checker_error(relu(src="nowhere"))
    assert err is not None and err.startswith("ValidationError: ") and "nowhere" in err and '"' not in err
    clash = relu(TensorProto.INT64)  # Relu of float declared int64: only shape inference sees it
    assert checker_error(clash, full_check=False) is None
    assert checker_error(clash) is not None
    # the plain question a Checker asks (check --mutations' gate, reduce's rejected model) is the plain checker's
    assert Checker()(clash, full_check=False) is None and Checker()(clash) == checker_error(clash)


def test_dims_vary_tolerates_feeds_of_lower_rank_than_annotated():
    # feeds from --feeds need not match the annotation's rank; such a feed says nothing about the dim
    m = _shape_model(dims=(3, 3, "N"))
    assert folding._dims_vary(m, [{"x": np.zeros(3, np.float32)}, {"x": np.zeros(3, np.float32)}])


# --- scopes of annotated values ----------------------------------------------------------------


def test_graph_scopes_walk_graph_and_graphs_attributes_only():
    from passcheck.oracles.shape_annotations import graph_scopes

    def body(tag):
        return helper.make_graph(
            [helper.make_node("Identity", ["x"], [tag])],
            tag,
            [],
            [helper.make_tensor_value_info(tag, TensorProto.FLOAT, [1])],
        )

    inner = body("b1")
    inner.node.append(
        helper.make_node("If", ["c"], ["z"], name="inner_if", then_branch=body("it"), else_branch=body("ie"))
    )
    multi = helper.make_node("Multi", ["x"], ["m"], domain="custom", name="multi", bodies=[body("b0"), inner], k=3)
    branch = helper.make_node("If", ["c"], ["y"], then_branch=body("t"), else_branch=body("e"))
    g = helper.make_graph([multi, branch], "main", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1])], [])
    m = helper.make_model(g)
    assert [s for s, _ in graph_scopes(m)] == [
        "",
        "multi.bodies[0]",
        "multi.bodies[1]",
        "multi.bodies[1]/inner_if.else_branch",
        "multi.bodies[1]/inner_if.then_branch",
        "If#1.else_branch",
        "If#1.then_branch",
    ]  # attributes in stored order


# --- expectations ------------------------------------------------------------------------------


@pytest.mark.parametrize("want", [(3,), (1,), (2, 1)])
def test_expected_output_shape_differing_either_way_is_a_finding(want):
    from passcheck.cases import Expectation
    from passcheck.oracles import expectations
    from passcheck.oracles._context import FormRun
    from passcheck.passes._base import PassOutcome

    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    m = helper.make_model(g)
    run = FormRun("c", "f", "p", m, PassOutcome("p", "unchanged", m), [], [], [])
    assert expectations.check(run, [Expectation(output_shapes={"y": (2,)})]) == []
    found = expectations.check(run, [Expectation(output_shapes={"y": want})])
    assert [f.kind for f in found] == ["expectation-failed"]
    assert f"shape {list(want)} after p, found [2]" in found[0].message


def test_a_value_whose_shape_is_only_the_static_dims_is_a_rank_violation():
    from passcheck.oracles.shape_annotations import check

    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
    )
    m = helper.make_model(g)
    ok = check(m, {"x": np.zeros((2, 3), np.float32), "y": np.zeros((2, 3), np.float32)})
    assert ok.violations == [] and ok.binding == {"N": 2}
    bad = check(m, {"x": np.zeros((2, 3), np.float32), "y": np.zeros(3, np.float32)})
    assert [(v.value, v.rule) for v in bad.violations] == [("y", "rank")]


def test_less_precise_annotations_are_shown_as_written():
    from passcheck.oracles.parity import precision, type_str

    unknown = helper.make_tensor_type_proto(TensorProto.FLOAT, None)
    mixed = helper.make_tensor_type_proto(TensorProto.FLOAT, [2, "N", None])
    assert type_str(unknown) == "rank unknown"
    assert type_str(mixed) == '[2, "N", ?]'
    assert precision(unknown) == (0, 0, 0) and precision(mixed) == (1, 1, 1)


def test_large_static_dims_compare_by_value():
    from passcheck.oracles.shape_annotations import check

    g = helper.make_graph(
        [],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 1000])],
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 1000])],
    )
    report = check(helper.make_model(g), {"x": np.zeros((2, 1000), np.float64)})  # wrong dtype: judged in full
    assert {v.rule for v in report.violations} == {"elem-type"}  # as input and as output: no dim-value


# --- parity: forms rewritten into different op types ---------------------------------------------


def _planted_cells(rewrite, forms, bindings=({}, {})):
    """Cells per form of a case whose only pass is the planted ``rewrite(model) -> model``."""
    from passcheck.engine import Subject, evaluate
    from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

    pid = f"planted:{rewrite.__name__}"
    register_pass(FunctionAdapter(pid, rewrite))
    try:
        return {c.form: c for c in evaluate(Subject("parity/power", forms, list(bindings)), [pid], check_input=False)}
    finally:
        unregister_pass(pid)


def test_forms_rewritten_into_different_new_ops_is_a_finding_on_the_uncommon_form():
    from onnx import parser

    head = '<ir_version: 8, opset_import: ["" : 18]> g (float[2, 3] x) => (float[2, 3] y) '
    forms = {
        "common": parser.parse_model(head + "{ t = Neg(x)  y = Neg(t) }"),
        "detour": parser.parse_model(head + "{ t = Neg(x)  u = Identity(t)  y = Neg(u) }"),
    }

    def to_identity_or_sum(model):
        """Planted pass, right on both forms (y = x), but into different ops: Identity on
        ``common``, a one-input Sum on ``detour``; no op is kept on one form and lost on the other."""
        body = "y = Identity(x)" if len(model.graph.node) == 2 else "y = Sum(x)"
        return parser.parse_model(head + "{ " + body + " }")

    cells = _planted_cells(to_identity_or_sum, forms)
    assert [(f.oracle, f.kind) for f in cells["detour"].findings] == [("parity", "missed-optimization")]
    assert "rewrote the forms into different ops" in cells["detour"].findings[0].message
    assert "new op types: common ['Identity'], detour ['Sum']" in cells["detour"].findings[0].message
    assert cells["common"].findings == []


def test_an_annotation_holds_only_when_no_element_of_it_is_violated():
    from passcheck.oracles import annotations
    from passcheck.oracles._context import FormRun
    from passcheck.passes._base import PassOutcome
    from passcheck.runtime.session import run_ort

    def seq_model(elem_dims):
        g = helper.make_graph(
            [helper.make_node("SequenceConstruct", ["x", "x"], ["s"]), helper.make_node("Relu", ["x"], ["y"])],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
            [
                helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, elem_dims),
                helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3]),
            ],
        )
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])

    def run_of(model):
        feeds = [{"x": np.ones((2, 3), np.float32)}]
        runs = [run_ort(model, f) for f in feeds]
        assert not runs[0].error and len(runs[0].outputs["s"]) == 2
        return FormRun("c", "f", "p", model, PassOutcome("p", "changed", model), feeds, runs, runs)

    assert annotations.holds(run_of(seq_model([2, 3])), "s")
    wrong = run_of(seq_model([2, 4]))  # each element (labelled s[0], s[1]) breaks the annotation of s
    assert not annotations.holds(wrong, "s")
    assert annotations.holds(wrong, "y")  # a violation inside s says nothing about y


# --- oracles on real onnxruntime runs of hand-built FormRuns -------------------------------------


def _form_run(model, shapes, output=None, **kw):
    """A FormRun of ``output`` (default: ``model`` itself) run by onnxruntime on float32 ones
    feeds for ``x`` of each shape in ``shapes``, every node output observed."""
    from passcheck.oracles._context import FormRun
    from passcheck.passes._base import PassOutcome
    from passcheck.runtime.session import all_node_outputs, run_ort

    output = output or model
    feeds = [{"x": np.ones(s, np.float32)} for s in shapes]
    runs = [run_ort(output, f, expose=all_node_outputs(output)) for f in feeds]
    assert not any(r.error for r in runs), runs
    return FormRun("c", "f", "p", model, PassOutcome("p", "changed", output), feeds, runs, runs, **kw)


def test_folding_judges_three_bindings_and_not_one():
    m = _shape_model()
    three = folding.check(_form_run(m, [(2, 3), (3, 3), (4, 3)], folds_constants=True))
    assert [(f.kind, f.details["node"], f.details["value"]) for f in three] == [("missed-optimization", "gather", [3])]
    assert folding.check(_form_run(m, [(2, 3)], folds_constants=True)) == []  # one run shows no invariance


def test_annotation_findings_name_the_role_of_the_annotation():
    from passcheck.oracles import annotations

    def relu(in_dims, out_dims):
        g = helper.make_graph(
            [helper.make_node("Relu", ["x"], ["y"])],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, in_dims)],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_dims)],
        )
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])

    wrong_output = annotations.check(_form_run(relu(["N", 3], ["N", 3]), [(2, 3)], output=relu(["N", 3], ["N", 4])))
    assert [f.message.split(":")[0] for f in wrong_output] == ["annotation does not hold (binding 0)"]
    narrowed_input = annotations.check(_form_run(relu(["N", 3], ["N", 3]), [(2, 3)], output=relu([5, 3], ["N", 3])))
    assert [f.message.split(":")[0] for f in narrowed_input] == [
        "graph input annotation (narrowed by the pass) does not hold (binding 0)"
    ]


def test_a_symbol_conflict_between_other_values_does_not_break_an_annotation():
    from passcheck.oracles import annotations

    g = helper.make_graph(
        [helper.make_node("Concat", ["x", "x"], ["y"], axis=0), helper.make_node("Shape", ["x"], ["a"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N"])],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N"]),
            helper.make_tensor_value_info("a", TensorProto.INT64, [1]),
        ],
    )
    run = _form_run(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), [(2,), (3,)])
    assert not annotations.holds(run, "y")  # y[0] = 2N contradicts N bound by x
    assert annotations.holds(run, "a")  # the conflict's occurrences (x, y) do not involve a


def test_unchecked_outputs_name_the_failing_bindings():
    from passcheck.oracles.numeric import unchecked
    from passcheck.runtime.session import RunResult

    run = _form_run(_shape_model(), [(2, 3), (3, 3)])
    run.baseline = [RunResult({}, {}, error="boom"), RunResult({}, {})]
    assert "(binding 0): boom" in unchecked(run)["output 'd'"]
    run.baseline = [RunResult({}, {}, error="boom"), RunResult({}, {}, error="bang")]
    assert "(bindings 0, 1): boom" in unchecked(run)["output 'd'"]


def test_checker_error_is_cut_at_600_characters():
    long_name = "n" * 800
    g = helper.make_graph(
        [helper.make_node("Relu", [long_name], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    err = checker_error(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]))
    name, text = err.split(": ", 1)
    assert name == "ValidationError" and len(text) == 600 and text.endswith("n" * 50)


def test_a_missed_optimization_lists_at_most_four_kept_nodes():
    from onnx import parser

    head = '<ir_version: 8, opset_import: ["" : 18]> g (float[2] x) => (float[2] y) '
    negs = "a = Neg(x)  b = Neg(a)  c = Neg(b)  d = Neg(c)  e = Neg(d)  y = Neg(e)"
    forms = {
        "common": parser.parse_model(head + "{ " + negs + " }"),
        "detour": parser.parse_model(head + "{ " + negs.replace("b = Neg(a)", "i = Identity(a)  b = Neg(i)") + " }"),
    }

    def fold_negs_on_common(model):
        """Planted pass: six Negs → Identity, on ``common`` only (right: six negations cancel)."""
        return parser.parse_model(head + "{ y = Identity(x) }") if len(model.graph.node) == 6 else model

    cells = _planted_cells(fold_negs_on_common, forms)
    [f] = cells["detour"].findings
    assert f.kind == "missed-optimization" and len(f.details["kept_nodes"]) == 6
    assert "kept in 'detour': #0, #2 after Identity #1, #3 after Neg #2, #4 after Neg #3, … (6 in all)" in f.message, (
        f.message
    )


def test_fewer_nodes_removed_on_a_form_is_a_missed_optimization_only_when_both_had_as_many():
    """``parity._kept``: ``b`` losing fewer nodes of a type than ``a`` is a finding when both forms had
    the same number of them; from different numbers the removed counts say nothing (kills
    ``ba[op] == bb[op]`` → ``<=``, which flagged a form that simply had more)."""
    from onnx import parser

    head = '<ir_version: 8, opset_import: ["" : 18]> g (float[2, 3] x) => (float[2, 3] y) '
    two = "t = Relu(x)  y = Relu(t)"

    def drop_a_relu_on_common(model):
        """Planted pass, right (Relu is idempotent): one Relu of ``common`` goes; other forms stay."""
        return parser.parse_model(head + "{ y = Relu(x) }") if model.graph.node[-1].input[0] == "t" else model

    for detour, kind in [
        ("t = Relu(x)  u = Identity(t)  y = Relu(u)", ["missed-optimization"]),  # two Relus: one fewer removed
        ("t = Relu(x)  r = Relu(t)  u = Identity(r)  y = Relu(u)", []),  # three Relus: not comparable
    ]:
        forms = {
            "common": parser.parse_model(head + "{ " + two + " }"),
            "detour": parser.parse_model(head + "{ " + detour + " }"),
        }
        cells = _planted_cells(drop_a_relu_on_common, forms)
        assert cells["common"].findings == []
        assert [f.kind for f in cells["detour"].findings] == kind, (detour, cells["detour"].findings)


def test_a_pass_that_adds_nodes_of_a_type_removed_none_of_them():
    """``parity._kept`` looks only at types the pass removed from ``common`` (``removed_a <= 0``: skip):
    adding more of a type to the other form is no missed optimization (kills ``<= 0`` → ``== 0``)."""
    from onnx import parser

    head = '<ir_version: 8, opset_import: ["" : 18]> g (float[2, 3] x) => (float[2, 3] y) '
    forms = {
        "common": parser.parse_model(head + "{ y = Relu(x) }"),
        "detour": parser.parse_model(head + "{ t = Identity(x)  y = Relu(t) }"),
    }

    def add_relus(model):
        """Planted pass, right (Relu is idempotent): one more Relu on ``common``, two on ``detour``."""
        chain = "t = Relu(x)  y = Relu(t)" if len(model.graph.node) == 1 else "t = Relu(x)  r = Relu(t)  y = Relu(r)"
        return parser.parse_model(head + "{ " + chain + " }")

    cells = _planted_cells(add_relus, forms)
    assert cells["common"].findings == [] and cells["detour"].findings == []


def test_forms_rewritten_into_the_same_ops_are_no_finding():
    from onnx import parser

    head = '<ir_version: 8, opset_import: ["" : 18]> g (float[2, 3] x) => (float[2, 3] y) '
    forms = {
        "common": parser.parse_model(head + "{ t = Neg(x)  y = Neg(t) }"),
        "detour": parser.parse_model(head + "{ t = Neg(x)  u = Identity(t)  y = Neg(u) }"),
    }

    def to_identity(model):
        """Planted pass: y = Identity(x) on both forms (new on ``common`` only: ``detour`` had one)."""
        return parser.parse_model(head + "{ y = Identity(x) }")

    cells = _planted_cells(to_identity, forms)
    assert cells["common"].findings == [] and cells["detour"].findings == []


def test_a_sequence_of_untyped_elements_asserts_nothing_about_them():
    from passcheck.oracles.shape_annotations import check

    seq = onnx.ValueInfoProto(name="s")
    seq.type.sequence_type.elem_type.SetInParent()  # elem_type present, of no kind
    g = helper.make_graph(
        [helper.make_node("SequenceConstruct", ["x"], ["s"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [seq],
    )
    report = check(helper.make_model(g), {"x": np.zeros(2, np.float32), "s": [np.zeros(2, np.float32)]})
    assert report.violations == [] and report.checked == 2


def test_annotations_are_judged_in_the_bindings_that_run_after_one_that_fails():
    from onnx import parser

    # y = Reshape(x, [3]) runs only when N = 3: binding 0 (N = 2) fails on input and output alike
    model = parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 18]> g (float[N] x) => (float[3] y) '
        "{ s = Constant <value = int64[1] {3}> ()  y = Reshape(x, s) }"
    )

    def annotate_y_as_4(m):
        """Planted bug: the output annotation becomes [4] (the run gives [3])."""
        out = onnx.ModelProto()
        out.CopyFrom(m)
        out.graph.output[0].type.tensor_type.shape.dim[0].dim_value = 4
        return out

    cell = _planted_cells(annotate_y_as_4, {"common": model}, [{"N": 2}, {"N": 3}])["common"]
    found = [f for f in cell.findings if f.oracle == "annotations"]
    assert [(f.kind, f.details["binding"]) for f in found] == [("annotation-violated", 1)], cell.findings


# --- folding: constant-only subgraphs (issue 18.2) ------------------------------------------------


def test_constant_only_follows_initializers_and_constant_nodes_not_overridable_inputs():
    m = _shape_model(
        [
            helper.make_node("Add", ["one", "k"], ["c"], name="constants_only"),
            helper.make_node(
                "Constant", [], ["cn"], name="const", value=helper.make_tensor("v", TensorProto.INT64, [], [4])
            ),
            helper.make_node("Mul", ["c", "cn"], ["cc"], name="chained"),
            helper.make_node("Add", ["cc", "d"], ["mixed"], name="with_shape"),
            helper.make_node("Add", ["k", "bias"], ["kb"], name="overridable"),
            helper.make_node("RandomUniformLike", ["c"], ["rnd"], name="random", dtype=TensorProto.FLOAT),
            helper.make_node("Neg", ["k"], ["kn"], name="to_output"),
            helper.make_node("ConstantOfShape", ["k1"], ["filled"], name="kept_on_purpose"),
            helper.make_node("Neg", ["filled"], ["after_kept"], name="after_kept"),
        ]
    )
    m.graph.initializer.append(helper.make_tensor("k1", TensorProto.INT64, [1], [3]))
    m.graph.input.append(helper.make_tensor_value_info("bias", TensorProto.INT64, []))
    m.graph.initializer.append(
        helper.make_tensor("bias", TensorProto.INT64, [], [5])
    )  # a default the caller may override
    m.graph.output.append(helper.make_tensor_value_info("kn", TensorProto.INT64, None))
    # a node writing a graph output is judged too, as shape-derived ones are (graph outputs d and dk)
    assert [n.name for _, n in folding.constant_only(m)] == ["constants_only", "chained", "to_output"]
    assert [n.name for _, n in folding.shape_derived(m)][-1] == "with_shape"
    assert {"c", "cc"} <= set(folding.values_to_observe(m))


def test_constant_only_nodes_are_judged_from_a_single_run_and_named_once_per_chain():
    m = _shape_model(
        [
            helper.make_node("Add", ["one", "k"], ["c"], name="constants_only"),
            helper.make_node("Neg", ["c"], ["nc"], name="after"),
            helper.make_node("Add", ["nc", "d"], ["e"], name="sum"),
        ]
    )
    m.graph.output.extend([helper.make_tensor_value_info(n, TensorProto.INT64, None) for n in ("e",)])
    one = folding.check(_form_run(m, [(2, 3)], folds_constants=True))
    assert [(f.details["node"], f.details["inputs"], f.details["value"]) for f in one] == [
        ("constants_only", "constants", [3])
    ]
    assert "reads only constants" in one[0].message
    two = folding.check(_form_run(m, [(2, 3), (4, 3)], folds_constants=True))
    assert [(f.details["node"], f.details["inputs"]) for f in two] == [
        ("gather", "shapes"),
        ("constants_only", "constants"),
    ]
    assert folding.check(_form_run(m, [(2, 3)], folds_constants=False)) == []


def test_a_folding_finding_shows_a_value_of_more_than_eight_elements_abbreviated():
    """The message prints each folded value with numpy's summary past 8 elements (``threshold=8``), the
    whole value staying in ``details["value"]``. Kills ``threshold=8`` → ``9``."""
    from onnx import numpy_helper

    g = helper.make_graph(
        [
            helper.make_node("Add", ["a", "b"], ["c"], name="constants_only"),
            helper.make_node("Neg", ["c"], ["nc"], name="after"),
            helper.make_node("Identity", ["x"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info(n, t, None) for n, t in (("y", TensorProto.FLOAT), ("nc", TensorProto.INT64))],
        [numpy_helper.from_array(v, n) for n, v in (("a", np.arange(9, dtype=np.int64)), ("b", np.zeros(9, np.int64)))],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    (f,) = folding.check(_form_run(m, [(2,)], folds_constants=True))
    assert "always yields [0 1 2 ... 6 7 8] (same for every binding)" in f.message
    assert f.details["value"] == [list(range(9))]


def test_an_output_random_in_the_input_model_is_compared_by_dtype_and_shape_even_if_the_pass_made_it_constant():
    """``numeric.check`` compares an output drawn from a random op in the input model *or* the pass output by
    dtype and shape only: a pass folding RandomUniform into a Constant changes no compared value. Kills
    ``drawn(run.model) | drawn(run.output)`` → ``&`` (values compared against a fresh draw)."""
    from onnx import parser

    from passcheck.oracles import numeric
    from passcheck.oracles._context import FormRun
    from passcheck.passes._base import PassOutcome
    from passcheck.runtime.session import run_ort

    head = (
        '<ir_version: 8, opset_import: ["" : 17]>\ng (float[2] x) => (float[3] y, float[2] z) {\n  z = Identity (x)\n'
    )
    drawn = parser.parse_model(head + "  y = RandomUniform <shape = [3], dtype = 1, seed = 1.0> ()\n}")
    folded = parser.parse_model(head + "  y = Constant <value = float[3] {0.5, 0.5, 0.5}> ()\n}")
    feeds = [{"x": np.ones(2, np.float32)}]
    base, runs = [run_ort(drawn, f) for f in feeds], [run_ort(folded, f) for f in feeds]
    assert not np.array_equal(base[0].outputs["y"], runs[0].outputs["y"])
    run = FormRun("c", "f", "p", drawn, PassOutcome("p", "changed", folded), feeds, runs, base)
    assert numeric.drawn(drawn) == {"y"} and numeric.drawn(folded) == set()
    assert numeric.check(run) == []
    wrong_shape = parser.parse_model(head + "  y = Constant <value = float[2] {0.5, 0.5}> ()\n}")
    wrong_shape.graph.output[0].type.tensor_type.shape.dim[0].dim_value = 2
    run = FormRun(
        "c", "f", "p", drawn, PassOutcome("p", "changed", wrong_shape), feeds, [run_ort(wrong_shape, feeds[0])], base
    )
    assert [f.kind for f in numeric.check(run)] == ["wrong-result"]


def test_a_node_counts_as_isolated_only_when_it_reads_a_graph_input_that_no_initializer_backs():
    """``parity._isolated``: every input a graph input, an initializer or empty, at least one a graph input
    without an initializer (else the node is foldable). Kills ``i in inputs and i not in inits`` → ``or``,
    which counted a node of initializers and an empty optional input, or of an initializer-backed input."""
    from onnx import numpy_helper

    from passcheck.oracles import parity

    def isolated(node, graph_inputs, inits):
        g = helper.make_graph(
            [node],
            "g",
            [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in graph_inputs],
            [helper.make_tensor_value_info(o, TensorProto.FLOAT, None) for o in node.output],
            [numpy_helper.from_array(np.zeros(2, np.float32), n) for n in inits],
        )
        return parity._isolated(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]))

    assert isolated(helper.make_node("Identity", ["x"], ["y"]), ["x"], []) == {"Identity": 1}
    assert isolated(helper.make_node("Identity", ["w"], ["y"]), ["w"], ["w"]) == {}  # an input with a default
    assert isolated(helper.make_node("Clip", ["w", "", "m"], ["y"]), [], ["w", "m"]) == {}
    # an empty optional input is no input to merge with; a node's output read is one (kills ``or not i`` → ``or i``)
    assert isolated(helper.make_node("Clip", ["x", "", "m"], ["y"]), ["x"], ["m"]) == {"Clip": 1}
    assert isolated(helper.make_node("Add", ["x", "t"], ["y"]), ["x"], []) == {}


def test_an_identity_the_pass_leaves_on_one_form_only_is_no_different_rewrite():
    """onnxscript's rewriter turns a same-type Cast and an identity-perm Transpose into Identity. On the
    one-node form the Identity links graph input to output (set aside as interface); on the form with the
    extra Transpose and one-input Concat it does not, which read as 'different new op types' on equal
    rewrites (hunt 2026-12-02, ``neutral-shape-ops`` under onnxscript:rewrite)."""
    from onnx import parser

    head = '<ir_version: 8, opset_import: ["" : 18]> g (float[2, 3] x) => (float[2, 3] y) '
    forms = {
        "common": parser.parse_model(head + "{ y = Cast<to=1>(x) }"),
        "neutral": parser.parse_model(
            head + "{ t = Cast<to=1>(x)  u = Transpose<perm=[0,1]>(t)  y = Concat<axis=0>(u) }"
        ),
    }

    def no_ops_to_identity(model):
        """Planted pass: each same-type Cast and identity-perm Transpose becomes an Identity."""
        out = onnx.ModelProto()
        out.CopyFrom(model)
        for n in out.graph.node:
            if n.op_type in ("Cast", "Transpose"):
                n.op_type = "Identity"
                del n.attribute[:]
        return out

    cells = _planted_cells(no_ops_to_identity, forms)
    assert cells["neutral"].findings == [] and cells["common"].findings == [], cells
    assert cells["neutral"].ops_after == {"Identity": 2, "Concat": 1}, cells["neutral"].ops_after
