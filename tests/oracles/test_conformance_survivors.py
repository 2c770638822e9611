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


def test_a_tensor_type_without_a_shape_is_an_unknown_rank_not_rank_zero():
    """Mutant killed in ``_dims``: the second ``or`` → ``and`` (a tensor type with no shape field read as
    rank 0, and Softmax's axis judged against ``[0, -1]``). The rank is unknown: the rule is undecided."""
    graph = helper.make_graph(
        [
            helper.make_node("Custom", ["x"], ["t"], domain="my.domain"),
            helper.make_node("Softmax", ["t"], ["y"], axis=1),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b"])],
        value_info=[helper.make_tensor_value_info("t", TensorProto.FLOAT, None)],  # no shape field
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("my.domain", 1)])
    onnx.checker.check_model(model)
    ev = evaluate(model)
    assert ev.violations == []
    assert ev.undecided == {"axis-Softmax@Softmax_1": "the rank of input 't' is unknown (shape inference gave none)"}


def test_the_graphs_of_a_graphs_attribute_are_judged():
    """Mutant killed in ``_walk``: ``a.type == GRAPH`` → ``>=`` (a GRAPHS attribute, type 10, read as its
    empty ``g`` field: its subgraphs never judged). No ai.onnx op has one; a node of another domain may."""
    body = helper.make_graph(
        [helper.make_node("Softmax", ["z"], ["w"], axis=2)],
        "body",
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("w", TensorProto.FLOAT, [2, 3])],
    )
    node = helper.make_node("Custom", ["x"], ["y"], domain="my.domain")
    node.attribute.append(helper.make_attribute("bodies", [body]))
    assert node.attribute[0].type == onnx.AttributeProto.GRAPHS
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("my.domain", 1)])
    onnx.checker.check_model(model)
    assert [(v.rule, v.node, v.message) for v in evaluate(model).violations] == [
        ("axis-Softmax", "Custom_0.bodies::Softmax_0", "axis = 2: [2] outside [-2, 1] (rank 2)")
    ]


def test_an_attribute_of_another_type_than_its_schema_says_is_a_violation_either_way():
    """Mutant killed in ``_schema``: ``int(want.type) != int(a.type)`` → ``>`` (an attribute whose type
    number is above the schema's, INTS for Softmax's INT axis, let through)."""
    for value, got, want in (([1], 7, "INT"), (1, 2, "INTS")):
        op, name = ("Softmax", "axis") if want == "INT" else ("ReduceMax", "axes")
        node = helper.make_node(op, ["x"], ["y"])
        node.attribute.append(helper.make_attribute(name, value))
        graph = helper.make_graph(
            [node],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
        found = [(v.rule, v.message) for v in evaluate(model).violations if v.rule == "schema-attribute-type"]
        assert found == [("schema-attribute-type", f"attribute {name!r} has type {got}, the schema says {want}")]


def test_a_pass_output_is_judged_without_an_isolated_checker():
    """Mutant killed in ``_evaluation``: ``died is not None`` → ``is`` (with no checker worker, the default
    of a FormRun, ``None`` was called)."""
    from passcheck.oracles._context import FormRun
    from passcheck.oracles.conformance import check
    from passcheck.passes import PassOutcome

    # a nearest_mode outside its four modes: the checker and shape inference accept it (Operators.md Resize)
    text = """<ir_version: 8, opset_import: ["" : 18]>
g (float[1, 1, 2, 2] x) => (float[1, 1, 4, 4] y) <float[4] scales = {{1.0, 1.0, 2.0, 2.0}}>
{{ y = Resize <mode = "nearest", nearest_mode = "{mode}"> (x, , scales) }}"""
    model, output = parser.parse_model(text.format(mode="floor")), parser.parse_model(text.format(mode="bogus"))
    run = FormRun("c", "common", "p", model, PassOutcome("p", "changed", output), [], [], [])
    assert run.checker is None
    (finding,) = check(run)
    assert finding.kind == "spec-violation" and finding.details["rule"] == "resize-nearest-mode"


def test_one_type_parameter_bound_to_two_elem_types_is_a_violation():
    """Mutants killed in ``_constraints``: ``len(seen) <= 1`` → ``<= 2`` and ``if formal.is_homogeneous`` →
    ``if not`` (Add's T bound to float and int64 let through; Operators.md Add: "T" for A, B and C)."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x, int64[3] n) => (float[3] z) { z = Add (x, n) }""")
    assert [(v.rule, v.message) for v in evaluate(model).violations] == [
        ("schema-type-binding", "type parameter T is bound to ['tensor(float)', 'tensor(int64)']")
    ]


def test_only_a_constant_node_makes_its_output_a_constant():
    """Mutant killed in ``_walk``: ``... and domain == "" and node.output`` → ``... or node.output`` (every
    node's output taken for a constant, ConstantOfShape's fill value read as its whole output)."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[6] x, int64[1] s) => (float[?] y) { t = ConstantOfShape <value = int64[1] {-1}> (s)  y = Reshape (x, t) }""")
    ev = evaluate(model)
    assert ev.violations == []
    assert ev.undecided["reshape-shape@Reshape_1"] == "input 't' is not a constant"


def _evaluate(nodes, opsets, value_info=()) -> tuple[list[tuple[str, str]], int]:
    """(rule, message) of each violation and the count of decided rules of a graph ``x`` → ``y``."""
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        value_info=list(value_info),
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in opsets])
    ev = evaluate(model)
    return [(v.rule, v.message) for v in ev.violations], ev.decided


def test_each_domain_keeps_its_own_opset_version():
    """Mutant killed in ``_evaluate``: ``o.domain or ""`` → ``and`` (every domain keyed "", the custom
    domain's version 1 taken for ai.onnx: Trilu, from opset 14, called undefined)."""
    assert _evaluate([helper.make_node("Trilu", ["x"], ["y"])], [("", 18), ("my.domain", 1)]) == ([], 5)


def test_a_default_domain_node_without_its_opset_imported_is_at_opset_0():
    """Mutant killed in ``_walk``: ``opsets.get("ai.onnx", 0)`` → ``1`` (Abs-1 found for a model that
    imports no ai.onnx opset: IR.md, Operator Sets: a node's domain must be imported)."""
    found = _evaluate([helper.make_node("Abs", ["x"], ["y"])], [("my.domain", 1)])
    assert found == ([("schema-since-version", "Abs has no schema at opset 0 of the default domain")], 1)


def test_inputs_beyond_a_schema_with_none_are_an_arity_violation_not_a_crash():
    """Mutant killed in ``_constraints``: ``not name or not formals`` → ``and`` (the input of a Constant,
    whose schema has no formal input, looked up in an empty list: IndexError)."""
    value = helper.make_tensor("v", TensorProto.FLOAT, [1], [1.0])
    found = _evaluate([helper.make_node("Constant", ["x"], ["y"], value=value)], [("", 18)])
    assert found == ([("schema-arity", "1 inputs; the schema allows 0 to 0")], 4)


def test_an_undefined_elem_type_is_not_judged_against_a_type_constraint():
    """Mutant killed in ``_constraints``: the last ``or not t.tensor_type.elem_type`` → ``and`` (a tensor
    of elem_type UNDEFINED (0), which states no type, read as ``tensor(undefined)`` and refused)."""
    t = helper.make_tensor_value_info("t", TensorProto.UNDEFINED, [2, 3])
    nodes = [helper.make_node("Custom", ["x"], ["t"], domain="my.domain"), helper.make_node("Relu", ["t"], ["y"])]
    assert _evaluate(nodes, [("", 18), ("my.domain", 1)], [t]) == ([], 4)


def test_a_trailing_empty_input_is_left_out():
    """Mutant killed in ``_trimmed``: ``names[n - 1]`` → ``names[n - 2]`` (Relu(x, "") counted as two
    inputs; IR.md, Optional Inputs and Outputs: a trailing empty name is an input left out)."""
    assert _evaluate([helper.make_node("Relu", ["x", ""], ["y"])], [("", 18)]) == ([], 5)


def test_a_violation_is_a_frozen_value():
    """Mutant killed: ``Violation``'s ``frozen=True`` → ``False`` (a violation an Evaluation caches per
    model, ``per_model``, could be changed by a reader, and would not hash)."""
    import dataclasses

    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[3] x, int64[3] n) => (float[3] z) { z = Add (x, n) }""")
    (v,) = evaluate(model).violations
    assert hash(v) == hash(dataclasses.replace(v))
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.message = "changed"


def test_a_cells_coverage_names_at_most_twenty_undecided_rules_and_counts_them_all():
    """Mutant killed: ``MAX_REASONS = 20`` → ``21`` (the cap on the reasons a cell's coverage names)."""
    nodes = [helper.make_node("Reshape", ["x", "s"], [f"r{i}"]) for i in range(22)]
    graph = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [6]),
            helper.make_tensor_value_info("s", TensorProto.INT64, [2]),
        ],
        [helper.make_tensor_value_info(f"r{i}", TensorProto.FLOAT, None) for i in range(22)],
    )
    coverage = evaluate(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])).coverage()
    assert coverage["not_applicable"] == 22 and len(coverage["reasons"]) == 20
    assert coverage["reasons"]["reshape-shape@Reshape_0"] == "input 's' is not a constant"


def test_a_value_with_no_type_at_all_is_an_unknown_rank():
    """Mutant killed in ``_dims``: the first ``or`` → ``and`` (``None.WhichOneof`` raised for a value no
    value_info types, and the rule said it could not read the node instead of why it is undecided)."""
    nodes = [
        helper.make_node("Custom", ["x"], ["t"], domain="my.domain"),
        helper.make_node("Softmax", ["t"], ["y"], axis=1),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b"])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("my.domain", 1)])
    ev = evaluate(model)
    assert ev.undecided == {"axis-Softmax@Softmax_1": "the rank of input 't' is unknown (shape inference gave none)"}


def test_a_schema_is_read_from_onnx_defs_once_per_op_opset_and_domain(monkeypatch):
    """Two models of the same ops: the second is judged without asking ``onnx.defs`` again, with the same
    result (a schema object builds its attributes, formals and type constraints anew on every access)."""
    import onnx.defs

    from passcheck.oracles import conformance

    conformance._schema_of.cache_clear()  # what earlier tests of this process read
    asked = []
    real = onnx.defs.get_schema
    monkeypatch.setattr(onnx.defs, "get_schema", lambda *a: asked.append(a) or real(*a))

    def model(opset: int) -> onnx.ModelProto:
        node = helper.make_node("Softmax", ["x"], ["y"], axis=5)  # axis outside the rank: a violation
        graph = helper.make_graph(
            [node, helper.make_node("Relu", ["y"], ["z"])],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
            [helper.make_tensor_value_info("z", TensorProto.FLOAT, [2, 3])],
        )
        return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])

    first = evaluate(model(17))
    n = len(asked)
    second = evaluate(model(17))
    assert n == len(asked) == 2  # Softmax and Relu at 17
    assert [vars(v) for v in second.violations] == [vars(v) for v in first.violations] != []
    assert second.decided == first.decided
    evaluate(model(16))  # another opset: asked again
    assert len(asked) == 4
