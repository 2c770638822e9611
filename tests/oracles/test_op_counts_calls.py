"""``op_counts`` of model-local function calls (passcheck/oracles/_context.py): a call counts as its body's
nodes, and a function calling itself (IR.md §Functions forbids it, a malformed input may still hold it)
is counted as the call, not walked forever."""

from __future__ import annotations

from collections import Counter

import onnx
from onnx import helper

from passcheck.oracles import op_counts


def _model(bodies: dict[str, list]) -> onnx.ModelProto:
    functions = [
        helper.make_function(
            "local", name, ["a"], ["b"], nodes, [helper.make_opsetid("", 18), helper.make_opsetid("local", 1)]
        )
        for name, nodes in bodies.items()
    ]
    g = helper.make_graph(
        [helper.make_node("F", ["x"], ["y"], domain="local")],
        "g",
        [helper.make_tensor_value_info("x", 1, [3])],
        [helper.make_tensor_value_info("y", 1, [3])],
    )
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid("local", 1)]
    return helper.make_model(g, functions=functions, opset_imports=opsets, ir_version=9)


def test_a_call_counts_as_its_body_through_nested_calls():
    m = _model(
        {
            "F": [helper.make_node("G", ["a"], ["t"], domain="local"), helper.make_node("Neg", ["t"], ["b"])],
            "G": [helper.make_node("Relu", ["a"], ["b"])],
        }
    )
    assert op_counts(m) == Counter({"Relu": 1, "Neg": 1})


def test_a_function_calling_itself_is_counted_as_the_call():
    """Mutant killed: ``calls | {key}`` → ``calls & {key}`` (the functions being walked forgotten: a
    function calling itself, directly or through another, walked until RecursionError)."""
    direct = _model({"F": [helper.make_node("F", ["a"], ["t"], domain="local"), helper.make_node("Neg", ["t"], ["b"])]})
    assert op_counts(direct) == Counter({"Neg": 1, "local::F": 1})
    through = _model(
        {
            "F": [helper.make_node("G", ["a"], ["b"], domain="local")],
            "G": [helper.make_node("F", ["a"], ["t"], domain="local"), helper.make_node("Abs", ["t"], ["b"])],
        }
    )
    assert op_counts(through) == Counter({"Abs": 1, "local::F": 1})
