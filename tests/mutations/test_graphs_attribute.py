"""A call of a model-local function carrying an unread GRAPHS attribute whose graphs read the call's inputs
(:mod:`passcheck.mutations.graphs_attribute`): the sites, the full checker, onnxruntime computing the same
tensors, the outer reads, and onnx's own renaming (``onnx.compose.add_prefix``) keeping them (it walked
``AttributeProto.g`` only before onnx 1.22: docs/recall.md R215)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.compose
import onnxruntime as ort
from onnx import TensorProto, helper

from passcheck.mutations.graphs_attribute import COUNT, NAME
from passcheck.mutations.registry import REWRITES

RID = "call-carries-graphs-attribute"


def model() -> onnx.ModelProto:
    """``t = Relu(x)``, ``y = Add(t, x)``; ``x: [N, 4]``. No initializer: a subgraph's read of a renamed
    initializer is docs/found.md row 192, a defect of its own."""
    nodes = [
        helper.make_node("Relu", ["x"], ["t"], name="relu"),
        helper.make_node("Add", ["t", "x"], ["y"], name="add"),
    ]
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
    graph = helper.make_graph(nodes, "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def run(m: onnx.ModelProto) -> np.ndarray:
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)})[0]


def outer_reads(m: onnx.ModelProto) -> dict[str, list[str]]:
    """Call node name → the names its GRAPHS attribute's graphs read."""
    graphs = onnx.AttributeProto.GRAPHS
    return {
        n.name: [x for a in n.attribute if a.type == graphs for g in a.graphs for k in g.node for x in k.input]
        for n in m.graph.node
    }


def test_every_node_is_a_site_and_the_form_computes_the_same():
    m = model()
    assert REWRITES[RID].sites(m) == ["relu", "add"]
    mutant, applied = REWRITES[RID].apply(m)
    assert applied.nodes == ("relu", "add")
    onnx.checker.check_model(mutant, full_check=True)
    assert outer_reads(mutant) == {"relu": ["x"] * COUNT, "add": ["t", "x"] * COUNT}
    for f in mutant.functions:
        assert NAME in f.attribute and all(NAME not in {a.ref_attr_name for a in n.attribute} for n in f.node)
    assert np.array_equal(run(mutant), run(m))


def test_one_site_alone_and_the_inverse():
    mutant, _ = REWRITES[RID].apply(model(), ["add"])
    assert [n.domain for n in mutant.graph.node] == ["", "org.passcheck.local"]
    back, _ = REWRITES[REWRITES[RID].inverse].apply(mutant)
    assert [n.op_type for n in back.graph.node] == ["Relu", "Add"]
    assert np.array_equal(run(back), run(model()))


def test_add_prefix_renames_the_outer_reads_of_every_graph():
    """onnx 1.22+ walks ``attribute.graphs`` too: the renamed ``t`` is what both graphs of ``add``'s call read."""
    mutant, _ = REWRITES[RID].apply(model())
    renamed = onnx.compose.add_prefix(mutant, "p_", rename_inputs=False, rename_outputs=False)
    onnx.checker.check_model(renamed, full_check=True)
    reads = outer_reads(renamed)
    assert reads["p_add"] == ["p_t", "x"] * COUNT
    assert np.array_equal(run(renamed), run(model()))
