"""The folding oracle's two kinds treat a node writing a graph output alike: judged like any other.
A graph output may be an initializer (onnxruntime's ConstantFolding makes a folded one so) and seed 003
§2 folds ``Shape(x, start, end)`` also when it is the output, so a constant-only node writing a graph
output is a missed fold too, as a shape-derived one always was (``shape/dynamic-1-3-output``)."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass


def _model() -> onnx.ModelProto:
    """y = Relu(x); c = Add(two, three) (constants only), both graph outputs; s = Shape(x) with x's
    dims static, also a graph output."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    outs = [
        helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3]),
        helper.make_tensor_value_info("c", TensorProto.INT64, [1]),
        helper.make_tensor_value_info("s", TensorProto.INT64, [2]),
    ]
    inits = [numpy_helper.from_array(np.array([v], np.int64), n) for n, v in (("two", 2), ("three", 3))]
    nodes = [
        helper.make_node("Relu", ["x"], ["y"], name="relu"),
        helper.make_node("Add", ["two", "three"], ["c"], name="add"),
        helper.make_node("Shape", ["x"], ["s"], name="shape"),
    ]
    return helper.make_model(
        helper.make_graph(nodes, "g", [x], outs, inits), opset_imports=[helper.make_opsetid("", 17)]
    )


def _named(cells, pass_id: str) -> dict[str, str]:
    return {
        f.details["node"]: f.details["inputs"]
        for c in cells
        if c.pass_id == pass_id
        for f in c.findings
        if f.oracle == "folding"
    }


def test_graph_output_nodes_left_computed_are_named_by_both_kinds():
    pid = "planted:folds-nothing"
    register_pass(FunctionAdapter(pid, lambda m: m, folds_constants=True))
    try:
        cells = evaluate(Subject("folding/graph-outputs", {"common": _model()}, [{}, {}]), [pid])
    finally:
        unregister_pass(pid)
    assert _named(cells, pid) == {"add": "constants", "shape": "shapes"}


def test_onnxruntime_folds_them_into_initializers():
    cells = evaluate(Subject("folding/graph-outputs", {"common": _model()}, [{}, {}]), ["ort:basic"])
    assert [c.ops_after for c in cells if c.pass_id == "ort:basic"] == [{"Relu": 1}]  # both became initializers
    assert _named(cells, "ort:basic") == {}


def test_a_call_of_a_function_that_draws_is_never_a_missed_fold():
    """A model-local function computes its body (IR.md §Functions): a call of one holding a Bernoulli
    draws, as the op does, and is not folded even when it reads only constants (its probabilities all 1
    here, so every run gives ones). A 12-minute ``onnxsim:simplify`` hunt (seed 46) reported the call
    that ``node-as-local-function`` makes of ``generated/bernoulli-15.opset`` as a missed fold; a call
    of a function that does not draw still is one."""
    local = "org.passcheck.local"
    fn = [
        helper.make_function(
            local,
            name,
            ["a", "b"][:arity],
            ["o"],
            [helper.make_node(op, ["a", "b"][:arity], ["o"])],
            [helper.make_opsetid("", 17)],
        )
        for name, op, arity in (("Draw", "Bernoulli", 1), ("Sum", "Add", 2))
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 3]) for n in ("y", "d", "s")]
    inits = [numpy_helper.from_array(np.ones((2, 3), np.float32), n) for n in ("p", "q")]
    nodes = [
        helper.make_node("Relu", ["x"], ["y"], name="relu"),
        helper.make_node("Draw", ["p"], ["d"], name="draw_call", domain=local),
        helper.make_node("Sum", ["p", "q"], ["s"], name="sum_call", domain=local),
    ]
    model = helper.make_model(
        helper.make_graph(nodes, "g", [x], outs, inits),
        opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid(local, 1)],
        functions=fn,
    )
    pid = "planted:folds-nothing"
    register_pass(FunctionAdapter(pid, lambda m: m, folds_constants=True))
    try:
        cells = evaluate(Subject("folding/local-draw", {"common": model}, [{}, {}]), [pid])
    finally:
        unregister_pass(pid)
    assert _named(cells, pid) == {"sum_call": "constants"}
