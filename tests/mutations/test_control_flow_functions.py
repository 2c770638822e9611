"""control-flow-as-local-function and control-flow-as-nested-local-function with the real tools: an If whose
branch reads an outer value implicitly and holds an initializer, and a Loop reading an outer value, each become a
call of a model-local function that passes the checker, runs under onnxruntime and onnx's reference evaluator
with the original's outputs, and inlines back; a planted pass that forgets subgraphs inside function bodies is a
finding on the function forms only."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.inliner
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from passcheck.mutations import REWRITES, build_form, verify_equivalent
from passcheck.mutations.control_flow_functions import free_names

from ._models import feeds, run_planted

FORMS = ("control-flow-as-local-function", "control-flow-as-nested-local-function")


def flow() -> onnx.ModelProto:
    """y = If(flag) {then: x * w (w a branch initializer, x read from outside)} {else: x + s (s a main-graph
    initializer read from outside)}; z = Loop(2, true, x) {body: c + x (x read from outside)};
    the Loop's condition is given (onnx's reference evaluator runs no iteration when it is omitted:
    docs/found.md row 270)."""
    f = TensorProto.FLOAT
    then = helper.make_graph(
        [helper.make_node("Mul", ["x", "w"], ["t"])],
        "then",
        [],
        [helper.make_tensor_value_info("t", f, [2, 3])],
        [numpy_helper.from_array(np.full([3], 2.0, np.float32), "w")],
    )
    other = helper.make_graph(
        [helper.make_node("Add", ["x", "s"], ["e"])], "else", [], [helper.make_tensor_value_info("e", f, [2, 3])]
    )
    body = helper.make_graph(
        [
            helper.make_node("Identity", ["cond_in"], ["cond_out"]),
            helper.make_node("Add", ["c_in", "x"], ["c_out"]),
        ],
        "body",
        [
            helper.make_tensor_value_info("i", TensorProto.INT64, []),
            helper.make_tensor_value_info("cond_in", TensorProto.BOOL, []),
            helper.make_tensor_value_info("c_in", f, [2, 3]),
        ],
        [
            helper.make_tensor_value_info("cond_out", TensorProto.BOOL, []),
            helper.make_tensor_value_info("c_out", f, [2, 3]),
        ],
    )
    g = helper.make_graph(
        [
            helper.make_node("If", ["flag"], ["y"], name="branch", then_branch=then, else_branch=other),
            helper.make_node("Loop", ["n", "go", "x"], ["z"], name="repeat", body=body),
        ],
        "flow",
        [helper.make_tensor_value_info("x", f, [2, 3]), helper.make_tensor_value_info("flag", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", f, [2, 3]), helper.make_tensor_value_info("z", f, [2, 3])],
        [
            numpy_helper.from_array(np.ones([3], np.float32), "s"),
            numpy_helper.from_array(np.array(2, np.int64), "n"),
            numpy_helper.from_array(np.array(True), "go"),
        ],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=7)


def _feeds() -> list[dict[str, np.ndarray]]:
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    return [{"x": x, "flag": np.array(v)} for v in (True, False)]


def _ort(m: onnx.ModelProto, feed) -> list[np.ndarray]:
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)


def test_free_names_are_the_outer_reads_at_any_depth():
    m = flow()
    graphs = {a.name: a.g for n in m.graph.node for a in n.attribute}
    assert free_names(graphs["then_branch"]) == ["x"]  # w is the branch's own
    assert free_names(graphs["else_branch"]) == ["x", "s"]
    assert free_names(graphs["body"]) == ["x"]
    outer = helper.make_graph(
        [helper.make_node("If", ["c"], ["o"], then_branch=graphs["else_branch"], else_branch=graphs["then_branch"])],
        "o",
        [],
        [helper.make_tensor_value_info("o", 1, None)],
    )
    assert free_names(outer) == ["c", "x", "s"]  # a nested graph's free names, less what the outer graph defines


@pytest.mark.parametrize("form", FORMS)
def test_the_function_forms_compute_the_same(form):
    m = flow()
    mutant, applied = build_form(m, form)
    assert list(applied.nodes) == ["branch", "repeat"]
    onnx.checker.check_model(mutant, full_check=True)
    assert mutant.ir_version >= 8 and [n.domain for n in mutant.graph.node] == ["org.passcheck.local"] * 2
    assert len(mutant.functions) == (4 if "nested" in form else 2)
    held = [n.op_type for f in mutant.functions for n in f.node]
    assert "If" in held and "Loop" in held
    assert list(mutant.graph.node[0].input) == ["flag", "x", "s"]  # the outer reads made explicit
    assert list(mutant.graph.node[1].input) == ["n", "go", "x"]
    flat = onnx.inliner.inline_local_functions(mutant)
    assert not flat.functions and [n.op_type for n in flat.graph.node] == ["If", "Loop"]
    for feed in _feeds():
        want = _ort(m, feed)
        for got in (_ort(mutant, feed), ReferenceEvaluator(mutant).run(None, feed), _ort(flat, feed)):
            assert all(np.array_equal(a, b) for a, b in zip(want, got, strict=True))
    verify_equivalent(m, mutant, feeds(m), form)
    back = REWRITES["inline-local-functions"].apply(mutant)
    assert back is not None
    verify_equivalent(m, back[0], feeds(m), "inline-local-functions")


def test_one_site_and_no_site():
    m = flow()
    one, applied = REWRITES["control-flow-as-local-function"].apply(m, ["repeat"])
    assert list(applied.nodes) == ["repeat"] and [n.op_type for n in one.graph.node][0] == "If"
    plain = helper.make_model(
        helper.make_graph(
            [helper.make_node("Relu", ["x"], ["y"])],
            "g",
            [helper.make_tensor_value_info("x", 1, [2])],
            [helper.make_tensor_value_info("y", 1, [2])],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    assert REWRITES["control-flow-as-local-function"].apply(plain) is None


def test_a_pass_forgetting_subgraphs_in_function_bodies_is_a_finding():
    """A planted inliner whose tensor walker reads the main graph's subgraphs but not those in function bodies
    (onnx's external-data loader, docs/found.md row 1156): it drops their initializers, so the If form inside a
    function loses ``w``; the plain form is untouched."""
    from passcheck.engine import Subject
    from passcheck.runtime import default_bindings

    def forgetful(model: onnx.ModelProto) -> onnx.ModelProto:
        for f in model.functions:
            for n in f.node:
                for a in n.attribute:
                    if a.type == onnx.AttributeProto.GRAPH:
                        del a.g.initializer[:]
        return onnx.inliner.inline_local_functions(model)

    m = flow()
    forms = {"common": m} | {form: build_form(m, form)[0] for form in FORMS}
    cells = run_planted(Subject("flow", forms, default_bindings(m)), "planted:forget-function-subgraphs", forgetful)
    assert not any(c.findings for c in cells if c.form == "common")
    for form in FORMS:
        assert any(c.findings for c in cells if c.form == form), form


def test_the_region_form_holds_the_if_and_the_nodes_after_it():
    """If → Relu → Neg: one function holding all three, the branches' outer reads (x, s) its inputs."""
    m = flow()
    g = m.graph
    g.node[0].output[0] = "r"
    g.node.insert(1, helper.make_node("Relu", ["r"], ["a"], name="relu"))
    g.node.insert(2, helper.make_node("Neg", ["a"], ["y"], name="neg"))
    onnx.checker.check_model(m, full_check=True)
    mutant, applied = build_form(m, "control-flow-region-as-local-function")
    assert list(applied.nodes) == ["branch>relu>neg"]
    onnx.checker.check_model(mutant, full_check=True)
    (f,) = mutant.functions
    assert [n.op_type for n in f.node] == ["If", "Relu", "Neg"] and list(f.input) == ["flag", "x", "s"]
    assert [n.op_type for n in mutant.graph.node] == ["Region_If_Relu_Neg", "Loop"]
    for feed in _feeds():
        want = _ort(m, feed)
        for got in (_ort(mutant, feed), ReferenceEvaluator(mutant).run(None, feed)):
            assert all(np.array_equal(a, b) for a, b in zip(want, got, strict=True))
    verify_equivalent(m, mutant, feeds(m), "control-flow-region-as-local-function")
