"""The pass contract's ``description-dropped`` for a model's parts: a pass keeps the doc_string and metadata_props
of a model-local function it keeps (IR.md §Functions) and of a body graph whose node it keeps (IR.md §Graphs)."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.api import check_model
from passcheck.mutations.registry import build_form
from passcheck.oracles.part_descriptions import bodies_dropped, describes_parts, functions_dropped
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass


def _parts() -> onnx.ModelProto:
    """``y = If(c, then: Neg(AddRelu(x, w)), else: Abs(AddRelu(x, w)))``, ``AddRelu`` a model-local function;
    opset 18, IR 10, described everywhere by passcheck's own rewrites (the forms a hunt draws)."""
    t = TensorProto.FLOAT
    fn = helper.make_function(
        "local",
        "AddRelu",
        ["a", "b"],
        ["c"],
        [helper.make_node("Add", ["a", "b"], ["s"]), helper.make_node("Relu", ["s"], ["c"])],
        [helper.make_opsetid("", 18)],
    )
    then_g = helper.make_graph(
        [helper.make_node("Neg", ["r"], ["p"], name="neg")],
        "then_body",
        [],
        [helper.make_tensor_value_info("p", t, [2])],
    )
    else_g = helper.make_graph(
        [helper.make_node("Abs", ["r"], ["q"], name="abs")],
        "else_body",
        [],
        [helper.make_tensor_value_info("q", t, [2])],
    )
    g = helper.make_graph(
        [
            helper.make_node("AddRelu", ["x", "w"], ["r"], domain="local", name="call"),
            helper.make_node("If", ["c"], ["y"], name="branch", then_branch=then_g, else_branch=else_g),
        ],
        "main",
        [
            helper.make_tensor_value_info("x", t, [2]),
            helper.make_tensor_value_info("w", t, [2]),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
        ],
        [helper.make_tensor_value_info("y", t, [2])],
    )
    m = helper.make_model(
        g, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid("local", 1)], functions=[fn], ir_version=10
    )
    for rewrite in ("add-doc-strings", "add-metadata"):
        built = build_form(m, rewrite)
        assert built is not None, rewrite
        m = built[0]
    onnx.checker.check_model(m, full_check=True)
    return m


def _copy(m: onnx.ModelProto) -> onnx.ModelProto:
    out = onnx.ModelProto()
    out.CopyFrom(m)
    return out


def test_kept_functions_and_bodies_are_compared_field_by_field_and_removed_ones_are_not():
    m = _parts()
    assert describes_parts(m) and functions_dropped(m, m) == [] and bodies_dropped(m, m) == []
    bare = _copy(m)
    bare.functions[0].doc_string = ""
    del bare.functions[0].metadata_props[:]
    then_b = next(a.g for a in bare.graph.node[1].attribute if a.name == "then_branch")
    then_b.doc_string = ""
    del then_b.metadata_props[:]
    assert {(d.value, d.field) for d in functions_dropped(m, bare)} == {
        ("local.AddRelu", "function doc_string"),
        ("local.AddRelu", "function metadata_props"),
    }
    assert {(d.value, d.field) for d in bodies_dropped(m, bare)} == {
        ("branch.then_branch", "body doc_string"),
        ("branch.then_branch", "body metadata_props"),
    }
    assert functions_dropped(bare, m) == [] and bodies_dropped(bare, m) == []  # saying more is never a loss
    gone = _copy(bare)
    del gone.functions[:]  # inlined: not the same function any more
    gone.graph.node[1].name, gone.graph.node[1].output[0] = "renamed", "y2"  # not the same node: bodies not compared
    assert functions_dropped(m, gone) == [] and bodies_dropped(m, gone) == []
    moved = _copy(bare)
    moved.graph.node[1].output[0] = "y2"  # other outputs, the same name: the same node
    assert {d.value for d in bodies_dropped(m, moved)} == {"branch.then_branch"}
    moved.graph.node[0].name = "branch"  # a name two nodes hold matches neither
    assert bodies_dropped(m, moved) == []
    unnamed, stripped = _copy(m), _copy(bare)
    unnamed.graph.node[1].name = stripped.graph.node[1].name = ""  # an unnamed node is known by its outputs
    assert {d.value for d in bodies_dropped(unnamed, stripped)} == {"y.then_branch"}


@pytest.fixture
def strip_parts():
    def strip(model):
        """Planted: a pass that writes the model anew without its function's and its then-branch's doc_string."""
        out = _copy(model)
        for f in out.functions:
            f.doc_string = ""
        for n in out.graph.node:
            for a in n.attribute:
                if a.name == "then_branch":
                    a.g.doc_string = ""
        return out

    pid = register_pass(FunctionAdapter("test:strip-part-docs", strip, optimizes=False)).id
    yield pid
    unregister_pass(pid)


def test_a_planted_drop_is_caught_and_a_pass_that_removes_or_states_it_clears_the_part_is_not(strip_parts):
    """The planted pass is caught on the function and on the If's then-branch; onnx's inliner removes the function
    (not judged) and keeps the If's bodies as they were; onnx-ir's ClearMetadataAndDocStringPass clears every
    doc_string and metadata_props by its own docstring (``PassAdapter.clears``)."""
    passes = [strip_parts, "onnx:inline-local-functions", "onnx-ir:clear-metadata-and-doc-string"]
    report = check_model(_parts(), passes, isolation=False)
    parts = {
        c.pass_id: [f for f in c.findings if f.kind == "description-dropped" and "its " in f.message]
        for c in report.cells
    }
    planted = {f.message.split(" (")[0]: f.details["fields"] for f in parts[strip_parts]}
    assert planted == {
        f"{strip_parts} dropped what its input says of its model-local functions": ["function doc_string"],
        f"{strip_parts} dropped what its input says of its subgraphs": ["body doc_string"],
    }, parts[strip_parts]
    assert parts["onnx:inline-local-functions"] == []
    assert parts["onnx-ir:clear-metadata-and-doc-string"] == []
