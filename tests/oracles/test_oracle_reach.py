"""Oracle behaviour the mutation selection never reached (found with coverage of
bench/mutation_score.py's test selection): the checker/onnxruntime disagreement and the
reference evaluator's opinion, subgraph annotations judged in the oracle, a pass output that
fails to run or loses a graph output, precision parity past non-tensor outputs, and the
annotation checker's kind, precondition-conflict and unknown-dim messages."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, parser

from passcheck.engine import Subject, evaluate
from passcheck.oracles import shape_annotations
from passcheck.oracles.binding import PRECONDITION, BindingMap, Occurrence
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

HEAD = '<ir_version: 8, opset_import: ["" : 18, "com.microsoft": 1, "foo": 1]> '


def _cells(forms, pass_ids, bindings=({},), parity=None, rewrite=None):
    """Cells per (pass, form); ``rewrite`` (model → model) is registered as pass ``planted:<name>``."""
    if rewrite is not None:
        register_pass(FunctionAdapter(f"planted:{rewrite.__name__}", rewrite))
    try:
        kw = {"parity": parity} if parity is not None else {}
        cells = evaluate(
            Subject("reach/" + "-".join(forms), forms, list(bindings), **kw), pass_ids, check_input="input" in pass_ids
        )
    finally:
        if rewrite is not None:
            unregister_pass(f"planted:{rewrite.__name__}")
    return {(c.pass_id, c.form): c for c in cells}


def _found(cell, oracle):
    return [f for f in cell.findings if f.oracle == oracle]


# --- validity ----------------------------------------------------------------------------------


def test_a_form_the_checker_rejects_but_onnxruntime_runs_is_a_disagreement_with_the_evaluators_opinion():
    sig = "g (float[2, 3] x) => (float[2, 4] y, float[2, 3] z) "  # y is annotated wrong: strict inference rejects it
    forms = {
        "agrees": parser.parse_model(HEAD + sig + "{ y = Relu(x)  z = Neg(x) }"),
        "evalfails": parser.parse_model(HEAD + sig + "{ y = Relu(x)  z = com.microsoft.Gelu(x) }"),
        "ortfails": parser.parse_model(HEAD + sig + "{ y = Relu(x)  z = foo.Bar(x) }"),
    }
    for form, model in forms.items():
        [f] = _found(_cells({form: model}, ["input"])[("input", form)], "validity")
        if form == "ortfails":  # nobody runs it: a plain invalid model
            assert f.kind == "invalid-model" and f.message.startswith("the checker rejects this form: InferenceError")
            continue
        assert f.kind == "validity-disagreement"
        assert f.message.startswith("the onnx checker rejects this form but onnxruntime runs it: InferenceError")
        if form == "agrees":
            assert f.details["reference"] == "agrees with onnxruntime"
        else:
            assert f.details["reference"].startswith("fails: NotImplementedError") and "Gelu" in f.details["reference"]


def test_a_pass_output_rejected_for_the_reason_its_input_is_rejected_is_not_the_pass_s_fault():
    model = parser.parse_model(HEAD + "g (float[2, 3] x) => (float[2, 4] y) { y = Relu(x) }")

    def unchanged_copy(m):
        out = onnx.ModelProto()
        out.CopyFrom(m)
        return out

    cell = _cells({"common": model}, ["planted:unchanged_copy"], rewrite=unchanged_copy)[
        ("planted:unchanged_copy", "common")
    ]
    assert _found(cell, "validity") == []


# --- numeric -----------------------------------------------------------------------------------


def test_an_output_that_fails_to_run_or_loses_a_graph_output_is_a_wrong_result():
    sig = "g (float[2, 3] x) => (float[2, 3] y) "
    model = parser.parse_model(HEAD + sig + "{ y = Relu(x) }")

    def to_unknown_op(m):
        """Planted: Relu replaced by an op no runtime has."""
        return parser.parse_model(HEAD + sig + "{ y = foo.Bar(x) }")

    def rename_output(m):
        """Planted: the graph output y is renamed y2, and z is negated."""
        return parser.parse_model(
            HEAD + "g (float[2, 3] x) => (float[2, 3] y2, float[2, 3] z) { y2 = Relu(x)  z = Neg(x) }"
        )

    [f] = _found(
        _cells({"common": model}, ["planted:to_unknown_op"], rewrite=to_unknown_op)[
            ("planted:to_unknown_op", "common")
        ],
        "numeric",
    )
    assert f.kind == "wrong-result" and f.message.startswith(
        "the output of planted:to_unknown_op fails to run (binding 0): "
    )
    two = parser.parse_model(
        HEAD + "g (float[2, 3] x) => (float[2, 3] y, float[2, 3] z) { y = Relu(x)  z = Identity(x) }"
    )
    found = _found(
        _cells({"common": two}, ["planted:rename_output"], rewrite=rename_output)[("planted:rename_output", "common")],
        "numeric",
    )
    assert (
        found[0].kind == "wrong-result"
        and found[0].message == "graph output 'y' is missing after planted:rename_output"
    )
    assert [f.details["output"] for f in found] == ["y", "z"]  # the other outputs are still compared


# --- parity: precision past outputs it cannot compare -------------------------------------------


def _two_outputs(body_dims):
    return parser.parse_model(
        HEAD + f"g (float[2, 3] x) => (seq(float[2, 3]) s, float[{body_dims}] y) "
        "{ s = SequenceConstruct(x, x)  y = Relu(x) }"
    )


def _lose_dims_on_detour(m):
    """Planted: y's static dims become named on ``detour`` only (the model with the Identity)."""
    out = onnx.ModelProto()
    out.CopyFrom(m)
    if any(n.op_type == "Identity" for n in m.graph.node):
        dim = out.graph.output[1].type.tensor_type.shape.dim[0]
        dim.dim_param = "A"
    return out


def test_precision_parity_looks_past_a_sequence_output():
    common = _two_outputs("2, 3")
    detour = parser.parse_model(
        HEAD + "g (float[2, 3] x) => (seq(float[2, 3]) s, float[2, 3] y) "
        "{ s = SequenceConstruct(x, x)  r = Relu(x)  y = Identity(r) }"
    )
    cells = _cells({"common": common, "detour": detour}, ["planted:_lose_dims_on_detour"], rewrite=_lose_dims_on_detour)
    [f] = _found(cells[("planted:_lose_dims_on_detour", "detour")], "parity")
    assert f.kind == "less-precise" and f.details["output"] == "y"
    # without the precision check asked for, nothing is compared
    cells = _cells(
        {"common": common, "detour": detour},
        ["planted:_lose_dims_on_detour"],
        parity=frozenset({"ops"}),
        rewrite=_lose_dims_on_detour,
    )
    assert _found(cells[("planted:_lose_dims_on_detour", "detour")], "parity") == []


# --- annotations inside subgraphs, judged by the oracle -----------------------------------------


def _if_model(op, dims):
    return parser.parse_model(
        HEAD
        + f"""g (bool c, float[N, 3] x) => (float[N, 3] y) {{
      y = If (c) <then_branch = g1 () => (float[{dims}] t) {{ t = {op}(x) }}, else_branch = g2 () => (float[{dims}] e) {{ e = {op}(x) }}>
    }}"""
    )


def test_a_branch_annotation_is_judged_with_the_reference_evaluator():
    cell = _cells({"common": _if_model("Relu", "K, K")}, ["input"], [{"N": 2}, {"N": 4}])[("input", "common")]
    found = _found(cell, "annotations")
    assert found and all(
        f.kind == "annotation-violated" and "symbol 'K' takes different sizes in one run" in f.message for f in found
    )
    assert cell.coverage["checked"] == 4 and cell.unchecked == {}


def test_branch_annotations_the_evaluator_cannot_reach_are_unchecked_with_the_reason():
    cell = _cells({"common": _if_model("com.microsoft.Gelu", "N, 3")}, ["input"], [{"N": 2}, {"N": 4}])[
        ("input", "common")
    ]
    assert _found(cell, "annotations") == []
    assert sorted(cell.unchecked) == ["annotation 'If#0.else_branch::e'", "annotation 'If#0.then_branch::t'"]
    why = cell.unchecked["annotation 'If#0.then_branch::t'"]
    assert "the reference evaluator could not run the model: NotImplementedError" in why and why.endswith("(binding 0)")
    assert cell.coverage["unobservable"] == 2


def test_an_output_that_did_not_run_holds_no_annotation():
    from passcheck.oracles import annotations
    from passcheck.oracles._context import FormRun
    from passcheck.passes._base import PassOutcome
    from passcheck.runtime.session import run_ort

    model = parser.parse_model(HEAD + "g (float[2, 3] x) => (float[2, 3] y) { y = Relu(x) }")
    feeds = [{"x": np.ones((2, 3), np.float32)}, {}]
    runs = [run_ort(model, f) for f in feeds]
    run = FormRun("c", "f", "p", model, PassOutcome("p", "changed", model), feeds[:1], runs[:1], runs[:1])
    assert annotations.holds(run, "y")
    assert runs[1].error  # no feed for x: the second run fails
    run = FormRun("c", "f", "p", model, PassOutcome("p", "changed", model), feeds, runs, runs)
    assert not annotations.holds(run, "y")  # verified in one binding only


# --- the annotation checker's messages -----------------------------------------------------------


def test_a_value_of_the_wrong_kind_is_a_kind_violation_naming_what_ran():
    def model(vi):
        return helper.make_model(helper.make_graph([], "g", [], [vi]))

    seq = model(helper.make_tensor_sequence_value_info("v", TensorProto.FLOAT, [2]))
    [v] = shape_annotations.check(seq, {"v": None}).violations
    assert (v.rule, v.message) == ("kind", "v: annotated as a sequence but the run produced no value (None)")
    [v] = shape_annotations.check(seq, {"v": np.zeros(2, np.float32)}).violations
    assert v.message == "v: annotated as a sequence but the run produced a tensor float32 [2]"
    mp = model(
        helper.make_value_info(
            "v", helper.make_map_type_proto(TensorProto.INT64, helper.make_tensor_type_proto(TensorProto.FLOAT, []))
        )
    )
    [v] = shape_annotations.check(mp, {"v": [1.0]}).violations
    assert v.message == "v: annotated as a map but the run produced a list"


def test_inputs_that_disagree_on_a_symbol_are_one_precondition_violation():
    g = helper.make_graph(
        [helper.make_node("Add", ["a", "b"], ["y"])],
        "g",
        [
            helper.make_tensor_value_info("a", TensorProto.FLOAT, ["N"]),
            helper.make_tensor_value_info("b", TensorProto.FLOAT, ["N"]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    report = shape_annotations.check(
        helper.make_model(g), {"a": np.zeros(2, np.float32), "b": np.zeros(3, np.float32), "y": np.zeros(3, np.float32)}
    )
    [v] = report.violations
    assert (v.value, v.role, v.rule) == ("N", PRECONDITION, "symbol") and report.bad_input
    assert v.message == "inputs disagree on symbol 'N': a[0]=2, b[0]=3"
    assert report.to_json()["violations"][0]["occurrences"][1] == {
        "symbol": "N",
        "value": "b",
        "axis": 0,
        "size": 3,
        "role": PRECONDITION,
    }
    assert report.to_json()["ok"] is False and report.to_json()["binding"] == {"N": 2}


def test_unknown_dim_spellings_are_named_in_a_conflict_and_can_be_ignored():
    g = helper.make_graph(
        [helper.make_node("Concat", ["x", "x"], ["y"], axis=0)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["?", "?"])],
    )
    observed = {"x": np.zeros((2, 3), np.float32), "y": np.zeros((4, 3), np.float32)}
    [v] = shape_annotations.check(helper.make_model(g), observed).violations
    assert v.message.endswith(
        "; '?' is bound to several sizes: the tool uses it for unknown dims (--unknown-dim-param '\\\\?' treats such names as unknown)"
    )
    assert shape_annotations.check(helper.make_model(g), observed, unknown_dim_param=r"\?").violations == []
    g.output[0].type.tensor_type.shape.dim[0].dim_param = g.output[0].type.tensor_type.shape.dim[1].dim_param = "unk__7"
    [v] = shape_annotations.check(helper.make_model(g), observed).violations
    assert "'unk__7' is bound to several sizes" in v.message and "(--unknown-dim-param 'unk__\\\\d+'" in v.message


def test_binding_map_sizes_and_unknown_spellings():
    bmap = BindingMap(unknown=__import__("re").compile(r"\?"))
    for size in (2, 3, 2):
        bmap.add(Occurrence("N", "x", 0, size, PRECONDITION))
    bmap.add(Occurrence("?", "x", 1, 5, PRECONDITION))
    assert bmap.sizes("N") == {2, 3} and "?" not in bmap.occurrences and bmap.resolve() == {"N": 2}


def test_expected_output_shapes_name_what_the_pass_left():
    from passcheck.cases import Expectation
    from passcheck.oracles import expectations
    from passcheck.oracles._context import FormRun
    from passcheck.passes._base import PassOutcome

    m = parser.parse_model(HEAD + "g (float[N, 3] x) => (float y, float[N, ?] z) { y = Relu(x)  z = Neg(x) }")
    m.graph.output[0].type.tensor_type.ClearField("shape")  # rank unknown
    run = FormRun("c", "f", "p", m, PassOutcome("p", "unchanged", m), [], [], [])
    found = expectations.check(run, [Expectation(output_shapes={"y": (2, 3), "z": (2, 3), "w": (1,)})])
    assert [f.message for f in found] == [
        "expected output 'y' shape [2, 3] after p, found no shape",
        "expected output 'z' shape [2, 3] after p, found ['N', '?']",
        "expected output 'w' shape [1] after p, found no shape",
    ]


def test_dims_vary_looks_past_inputs_without_a_shape():
    from passcheck.oracles import folding

    m = parser.parse_model(HEAD + "g (seq(float[2]) q, float r, float[N] x) => (int64[1] s) { s = Shape(x) }")
    m.graph.input[1].type.tensor_type.ClearField("shape")  # rank unknown
    one = [{"q": [np.zeros(2, np.float32)], "r": np.zeros(1, np.float32), "x": np.zeros(2, np.float32)}] * 2
    assert not folding._dims_vary(m, one)  # N took one size: "the same in every run" would mean nothing
    two = [one[0], {**one[0], "x": np.zeros(3, np.float32)}]
    assert folding._dims_vary(m, two)


def test_an_elem_type_with_no_numpy_dtype_is_not_judged_but_the_shape_is():
    g = helper.make_graph(
        [], "g", [], [helper.make_tensor_value_info("y", 99, [2])]
    )  # an elem_type this onnx does not know
    report = shape_annotations.check(helper.make_model(g), {"y": np.zeros(3, np.float32)})
    assert [(v.rule, v.message) for v in report.violations] == [
        ("dim-value", "y: axis 0 annotated 2, run produced 3 (shape [3])")
    ]
    assert shape_annotations.check(helper.make_model(g), {"y": np.zeros(2, np.int8)}).violations == []


def test_an_unchecked_output_quotes_160_characters_of_the_failure():
    from passcheck.oracles._context import FormRun
    from passcheck.oracles.numeric import unchecked
    from passcheck.passes._base import PassOutcome
    from passcheck.runtime.session import RunResult

    m = parser.parse_model(HEAD + "g (float[2] x) => (float[2] y) { y = Relu(x) }")
    run = FormRun("c", "f", "p", m, PassOutcome("p", "changed", m), [{}], [RunResult({}, {}, error="e" * 300)], [])
    assert unchecked(run)["output 'y'"].endswith("(binding 0): " + "e" * 159 + "…")


def test_an_output_that_fails_to_run_is_no_standard_for_the_other_form():
    head = '<ir_version: 8, opset_import: ["" : 18, "foo": 1]> g (float[2, 3] x) => (float[2, 3] y) '
    forms = {
        "common": parser.parse_model(head + "{ t = Neg(x)  y = Neg(t) }"),
        "detour": parser.parse_model(head + "{ t = Neg(x)  u = Identity(t)  y = Neg(u) }"),
    }

    def negs_to_unknown_op_on_common(model):
        """Planted: both Negs of ``common`` become one op no runtime has; ``detour`` is left alone."""
        return parser.parse_model(head + "{ y = foo.Bar(x) }") if len(model.graph.node) == 2 else model

    cells = _cells(forms, ["planted:negs_to_unknown_op_on_common"], [{}, {}], rewrite=negs_to_unknown_op_on_common)
    common, detour = (
        cells[("planted:negs_to_unknown_op_on_common", "common")],
        cells[("planted:negs_to_unknown_op_on_common", "detour")],
    )
    assert [(f.oracle, f.kind) for f in common.findings if f.oracle in ("numeric", "parity")] == [
        ("numeric", "wrong-result")
    ]
    assert detour.findings == []


def test_map_keys_are_judged_by_the_annotated_key_type():
    mt = helper.make_map_type_proto(TensorProto.INT64, helper.make_tensor_type_proto(TensorProto.FLOAT, [1]))
    model = helper.make_model(helper.make_graph([], "g", [], [helper.make_value_info("m", mt)]))
    value = np.zeros(1, np.float32)
    assert shape_annotations.check(model, {"m": {1: value, 2: value}}).violations == []
    [v] = shape_annotations.check(model, {"m": {"a": value}}).violations
    assert (v.rule, v.message) == ("key-type", "m: annotated key type INT64, run produced key 'a' (str)")
    mt.map_type.key_type = TensorProto.STRING
    model = helper.make_model(helper.make_graph([], "g", [], [helper.make_value_info("m", mt)]))
    assert shape_annotations.check(model, {"m": {"a": value}}).violations == []
    assert [v.rule for v in shape_annotations.check(model, {"m": {1: value}}).violations] == ["key-type"]


def test_a_symbol_is_bound_by_the_inputs_even_when_more_assertions_disagree():
    g = helper.make_graph(
        [helper.make_node("Concat", ["x", "x"], ["y"], axis=0), helper.make_node("Concat", ["x", "x"], ["z"], axis=0)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N"])],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N"]),
            helper.make_tensor_value_info("z", TensorProto.FLOAT, ["N"]),
        ],
    )
    x = np.zeros(2, np.float32)
    report = shape_annotations.check(
        helper.make_model(g), {"x": x, "y": np.zeros(4, np.float32), "z": np.zeros(4, np.float32)}
    )
    assert report.binding == {"N": 2}  # not 4, which two assertions agree on
    assert sorted(v.value for v in report.violations) == ["y", "z"]
    assert report.to_json()["binding"] == {"N": 2}


def test_a_value_with_a_shape_but_no_numpy_dtype_is_not_taken_for_a_tensor():
    import types

    g = helper.make_graph([], "g", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    [v] = shape_annotations.check(
        helper.make_model(g), {"y": types.SimpleNamespace(shape=(2,), dtype="float32")}
    ).violations
    assert (v.rule, v.message) == ("kind", "y: annotated as a tensor but the run produced a SimpleNamespace")


def test_an_annotation_violated_on_a_longer_name_does_not_hold():
    from passcheck.oracles import annotations
    from passcheck.oracles._context import FormRun
    from passcheck.passes._base import PassOutcome
    from passcheck.runtime.session import run_ort

    model = parser.parse_model(HEAD + "g (float[2, 3] x) => (float[2, 4] scores) { scores = Relu(x) }")
    feeds = [{"x": np.ones((2, 3), np.float32)}]
    runs = [run_ort(model, f) for f in feeds]
    run = FormRun("c", "f", "p", model, PassOutcome("p", "changed", model), feeds, runs, runs)
    name = "".join(["sco", "res"])  # equal to the output's name, not the same string object
    assert not annotations.holds(run, name)


def test_one_binding_s_numeric_findings_are_reported_not_every_binding_s():
    model = parser.parse_model(HEAD + "g (float[N] x) => (float[N] y) { y = Relu(x) }")

    def negate_output(m):
        """Planted bug: y = -Relu(x)."""
        return parser.parse_model(HEAD + "g (float[N] x) => (float[N] y) { r = Relu(x)  y = Neg(r) }")

    cell = _cells({"common": model}, ["planted:negate_output"], [{"N": 2}, {"N": 3}], rewrite=negate_output)[
        ("planted:negate_output", "common")
    ]
    assert [(f.kind, f.details["binding"]) for f in _found(cell, "numeric")] == [("wrong-result", 0)]


def test_a_node_with_a_subgraph_is_data_even_when_its_inputs_are_shape_derived():
    from passcheck.oracles import folding

    m = parser.parse_model(
        HEAD
        + """g (float[N, 3] x) => (int64[1] w) {
      s = Shape(x)  zero = Constant <value = int64[1] {0}> ()  big = Greater(s, zero)
      big_i = Cast <to = 7> (big)  c = ReduceMin(big_i)  cond = Cast <to = 9> (c)
      w = If (cond) <then_branch = g1 () => (int64[1] t) { t = Identity(s) }, else_branch = g2 () => (int64[1] e) { e = Identity(s) }>
    }"""
    )
    names = [n.op_type for _, n in folding.shape_derived(m)]
    assert "Shape" in names and "Greater" in names and "If" not in names


def test_a_conflict_names_only_the_occurrences_off_the_input_binding_for_large_sizes():
    g = helper.make_graph(
        [helper.make_node("Concat", ["x", "x"], ["y"], axis=0), helper.make_node("Identity", ["x"], ["z"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N"])],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N"]),
            helper.make_tensor_value_info("z", TensorProto.FLOAT, ["N"]),
        ],
    )
    big = np.zeros(300, np.float32)  # sizes past the small-int cache: compared by value
    report = shape_annotations.check(
        helper.make_model(g), {"x": big, "y": np.zeros(600, np.float32), "z": np.zeros(300, np.float32)}
    )
    assert [v.value for v in report.violations] == ["y"]


def test_empty_arrays_compare_equal_with_zero_errors():
    from passcheck.oracles.numeric import compare

    c = compare(np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32))
    assert c.ok and c.max_abs == 0.0 and c.max_rel == 0.0


def test_annotations_after_an_opaque_value_are_still_checked():
    opaque = onnx.ValueInfoProto(name="o")
    opaque.type.opaque_type.domain = "custom"
    opaque.type.opaque_type.name = "Handle"
    g = helper.make_graph([], "g", [], [opaque, helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    report = shape_annotations.check(helper.make_model(g), {"o": object(), "y": np.zeros(3, np.float32)})
    assert report.unchecked == {"o": shape_annotations.OPAQUE}
    assert [v.value for v in report.violations] == ["y"] and report.checked == 1


def test_a_float_mismatch_lists_the_five_worst_elements_worst_first():
    from passcheck.oracles.numeric import compare

    e = np.zeros(10, np.float32)
    c = compare(np.arange(1, 11, dtype=np.float32), e)
    assert [w["index"] for w in c.worst] == [[9], [8], [7], [6], [5]] and c.max_abs == 10.0


def test_python_scalars_in_maps_are_judged_by_kind_only():
    def map_model(value_type):
        mt = helper.make_map_type_proto(TensorProto.STRING, helper.make_tensor_type_proto(value_type, []))
        return helper.make_model(helper.make_graph([], "g", [], [helper.make_value_info("m", mt)]))

    # a runtime gives map values as Python scalars (e.g. ZipMap): int is int32-compatible, float is float32-compatible
    assert shape_annotations.check(map_model(TensorProto.INT32), {"m": {"a": 5}}).violations == []
    assert shape_annotations.check(map_model(TensorProto.FLOAT), {"m": {"a": 0.5}}).violations == []
    [v] = shape_annotations.check(map_model(TensorProto.FLOAT), {"m": {"a": 5}}).violations
    assert v.rule == "elem-type" and v.value == "m{'a'}"
    # a numpy value keeps its exact dtype
    assert [
        v.rule
        for v in shape_annotations.check(map_model(TensorProto.INT32), {"m": {"a": np.array(5, np.int64)}}).violations
    ] == ["elem-type"]


def test_a_violation_seen_in_every_binding_is_reported_once():
    model = parser.parse_model(
        HEAD + "g (float[2, 3] x, float[N] z) => (float[2, 3] y, float[N] z2) { y = Relu(x)  z2 = Neg(z) }"
    )

    def misannotate(m):
        """Planted bug: y annotated [2, 4] (the same wrong dim in every binding) and z2 [5] (N is 2, then 3)."""
        out = onnx.ModelProto()
        out.CopyFrom(m)
        out.graph.output[0].type.tensor_type.shape.dim[1].dim_value = 4
        out.graph.output[1].type.tensor_type.shape.dim[0].dim_value = 5
        return out

    cell = _cells({"common": model}, ["planted:misannotate"], [{"N": 2}, {"N": 3}], rewrite=misannotate)[
        ("planted:misannotate", "common")
    ]
    got = sorted((f.details["value"], f.details["binding"]) for f in _found(cell, "annotations"))
    assert got == [("y", 0), ("z2", 0), ("z2", 1)]  # y's repeat in binding 1 does not hide z2's


def test_exact_values_differ_in_either_direction():
    from passcheck.oracles.numeric import compare

    c = compare(np.array([5, 1], np.int64), np.array([4, 1], np.int64))  # actual above expected
    assert not c.ok and c.message == "1 of 2 elements differ (exact dtype int64)"
    assert not compare(np.array(["b"], object), np.array(["a"], object)).ok
    assert not compare(np.array([True]), np.array([False])).ok


def test_an_element_violation_of_a_longer_named_sequence_breaks_its_annotation():
    from passcheck.oracles import annotations
    from passcheck.oracles._context import FormRun
    from passcheck.passes._base import PassOutcome
    from passcheck.runtime.session import run_ort

    model = parser.parse_model(
        HEAD + "g (float[2, 3] x) => (seq(float[2, 4]) pairs, float[2, 3] pairs_tail) "
        "{ pairs = SequenceConstruct(x, x)  pairs_tail = Relu(x) }"
    )
    feeds = [{"x": np.ones((2, 3), np.float32)}]
    runs = [run_ort(model, f) for f in feeds]
    run = FormRun("c", "f", "p", model, PassOutcome("p", "changed", model), feeds, runs, runs)
    assert not annotations.holds(run, "pairs")  # pairs[0], pairs[1] break it
    assert annotations.holds(run, "pairs_tail")  # another value whose name starts the same


def test_check_takes_model_and_observed_by_name_and_its_options_by_name_only():
    g = helper.make_graph([], "g", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])])
    m = helper.make_model(g)
    assert shape_annotations.check(model=m, observed={"y": np.zeros(2, np.float32)}).ok
    with pytest.raises(TypeError):
        shape_annotations.check(m, {"y": np.zeros(2, np.float32)}, {})  # unobservable is keyword-only


def test_a_dim_with_neither_field_asserts_nothing_when_the_value_is_judged_in_full():
    g = helper.make_graph([], "g", [], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, 3])])
    assert not g.output[0].type.tensor_type.shape.dim[0].HasField("dim_value") and not g.output[
        0
    ].type.tensor_type.shape.dim[0].HasField("dim_param")
    [v] = shape_annotations.check(helper.make_model(g), {"y": np.zeros((5, 4), np.float32)}).violations
    assert v.message == "y: axis 1 annotated 3, run produced 4 (shape [5, 4])"
