"""``node-names-as-values`` / ``graph-names-as-values`` (round 19e, M397): node and graph names equal to value names
(IR.md §Names Within a Graph: names are unique within a namespace only). The written model passes the full checker
and computes the same; a pass that names a new value after a node, without checking the values, is caught."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.api import check_model
from passcheck.mutations import REWRITES

SRC = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[2, 3] y) {
  t = Sigmoid(x)
  y = If (c) <then_branch = th () => (float[2, 3] z) { z = Relu(t) },
              else_branch = el () => (float[2, 3] w) { w = Neg(t) }>
  c = Constant <value = bool {1}> ()
}"""
PLANTED = "planted:identity-named-after-node"


def _base() -> onnx.ModelProto:
    m = onnx.parser.parse_model(SRC)
    m.graph.node.insert(0, m.graph.node.pop(2))  # the Constant first (the text lists it last)
    return m


def _identity_named_after_node(model: onnx.ModelProto) -> onnx.ModelProto:
    """An Identity after the first main-graph node, its new value named after the node (or ``copy`` for an unnamed
    one) with no check against the values; the node's readers read the copy."""
    g = model.graph
    n = next(n for n in g.node if n.op_type == "Sigmoid")
    old, new = n.output[0], n.name or "copy"
    n.output[0] = new
    g.node.insert(list(g.node).index(n) + 1, onnx.helper.make_node("Identity", [new], [old]))
    return model


@pytest.fixture(scope="module", autouse=True)
def _planted():
    from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

    if PLANTED not in known_pass_ids():
        register_pass(FunctionAdapter(PLANTED, _identity_named_after_node, doc="test pass: a value named after a node"))


def _run(model: onnx.ModelProto) -> np.ndarray:
    x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def test_nodes_and_graphs_take_value_names_and_compute_the_same():
    base = _base()
    nodes, applied = REWRITES["node-names-as-values"].apply(base)
    assert applied.nodes == ("#0:Constant", "#1:Sigmoid", "#2:If", "z", "w")
    assert [n.name for n in nodes.graph.node] == ["c", "t", "y"]
    assert [b.g.node[0].name for b in nodes.graph.node[2].attribute] == ["z", "w"]
    graphs, applied = REWRITES["graph-names-as-values"].apply(base)
    assert applied.nodes == ("g", "th", "el")
    assert [graphs.graph.name, *(b.g.name for b in graphs.graph.node[2].attribute)] == ["y", "z", "w"]
    for m in (nodes, graphs):
        onnx.checker.check_model(m, full_check=True)
        np.testing.assert_array_equal(_run(m), _run(base))
    assert REWRITES["node-names-as-values"].apply(nodes) is None  # already named so: no site


@pytest.mark.parametrize(("form", "found"), [("node-names-as-values", True), (None, False)])
def test_a_pass_naming_a_value_after_a_node_is_reported_on_the_form_only(form, found):
    """Judged by the real engine: on the form the new value takes the name ``t`` its node's output already has (two
    definitions of ``t``); on the base the node has no name and the pass writes ``copy``."""
    model = REWRITES[form].apply(_base())[0] if form else _base()
    report = check_model(model, [PLANTED], isolation=False)
    (cell,) = [c for c in report.cells if c.pass_id == PLANTED]
    assert bool(cell.findings) is found, [(f.oracle, f.kind, f.message[:120]) for f in cell.findings]
