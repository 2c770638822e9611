"""Conformance on models its tools cannot fully read: onnx shape inference raising, a rule failing on a value."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper, parser

from passcheck.oracles.conformance import evaluate


def test_a_model_shape_inference_raises_on_is_still_judged_from_its_declared_types():
    """Mutant killed: ``except Exception`` → another class around ``infer_shapes`` in ``evaluate`` (the
    InferenceError escaped and the oracle crashed instead of judging)."""
    # the default of graph input x is int64, its declared type float: the checker accepts it (IR.md §Graphs
    # does not tie them), onnx shape inference raises "Inferred elem type differs from existing elem type"
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x, float[2, 3] z) => (float[3] y, float[2, 3] s) <int64[3] x = {1, 2, 3}>
{ y = Relu (x) s = Softmax <axis = 2> (z) }""")
    onnx.checker.check_model(model)
    with pytest.raises(onnx.shape_inference.InferenceError):
        onnx.shape_inference.infer_shapes(model)
    ev = evaluate(model)
    assert [(v.rule, v.message) for v in ev.violations] == [("axis-Softmax", "axis = 2: [2] outside [-2, 1] (rank 2)")]
    assert ev.undecided == {}


def test_a_rule_that_cannot_read_a_constant_leaves_the_node_undecided_with_why():
    """Mutant killed: ``except Exception`` → another class around ``rule.check`` in ``_judge`` (the rule's
    TypeError escaped: the oracle crashed on a model the checker accepts)."""
    # Reshape's shape as a string initializer: the checker does not check an input's elem type (no type
    # parameter binds it), and the reshape-shape rule compares its values with ints
    shape = helper.make_tensor("shape", TensorProto.STRING, [2], [b"a", b"b"])
    graph = helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [shape],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    onnx.checker.check_model(model)
    ev = evaluate(model)
    assert ev.violations == []
    assert list(ev.undecided) == ["reshape-shape@Reshape_0"]
    assert ev.undecided["reshape-shape@Reshape_0"].startswith("the rule could not read the node: TypeError: ")


def test_a_variadic_input_given_only_as_an_empty_name_breaks_its_minimum_arity():
    """Mutants killed in ``_required``: ``i + f.min_arity`` → ``-`` or ``*`` and ``i == len(formals) - 1`` →
    ``!=`` or ``+ 1`` (a trailing variadic's minimum arity not required). The checker counts the empty
    name as an input and accepts the node; Sum's schema asks for at least one (IR.md, Optional Inputs
    and Outputs: an empty name is an input left out)."""
    graph = helper.make_graph(
        [helper.make_node("Sum", [""], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    onnx.checker.check_model(model)
    assert [(v.rule, v.message) for v in evaluate(model).violations] == [
        ("schema-arity", "0 inputs; the schema allows 1 to 2147483647")
    ]
