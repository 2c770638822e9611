"""The shared one-read index of a main graph: memoized inside ``shared()`` only, never stale."""

from __future__ import annotations

import onnx
from onnx import TensorProto, helper

from passcheck.engine import plan_for
from passcheck.runtime import graph_index
from passcheck.runtime.plan import has_subscopes


def _model(with_if: bool = False) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])
    nodes = [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])]
    if with_if:
        branch = helper.make_graph(
            [helper.make_node("Identity", ["r"], ["b"])],
            "g",
            [],
            [helper.make_tensor_value_info("b", TensorProto.FLOAT, None)],
        )
        nodes = [
            nodes[0],
            helper.make_node("Constant", [], ["c"], value=helper.make_tensor("c", TensorProto.BOOL, [], [True])),
            helper.make_node("If", ["c"], ["y"], then_branch=branch, else_branch=branch),
        ]
    g = helper.make_graph(
        nodes, "m", [x], [y], value_info=[helper.make_tensor_value_info("r", TensorProto.FLOAT, ["N", 3])]
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def test_index_reads_nodes_and_scopes_as_the_protobuf_walk_does():
    for with_if in (False, True):
        m = _model(with_if)
        idx = graph_index.index_of(m)
        assert [n.op_type for n in idx.nodes] == [n.op_type for n in m.graph.node]
        assert [n.outputs for n in idx.nodes] == [tuple(n.output) for n in m.graph.node]
        assert idx.has_subscopes is has_subscopes(m) is with_if
        assert any(n.subgraph for n in idx.nodes) is with_if
        assert idx.inputs == ("x",) and idx.outputs == ("y",)


def test_memoized_by_identity_inside_shared_only():
    calls = []

    @graph_index.per_model
    def count(model):
        calls.append(1)
        return len(model.graph.node)

    m = _model()
    assert count(m) == 2 and count(m) == 2 and len(calls) == 2  # outside: computed each time
    with graph_index.shared():
        assert count(m) == 2 and count(m) == 2 and len(calls) == 3
        with graph_index.shared():  # nested blocks share the outer memo
            assert count(m) == 2 and len(calls) == 3
        other = _model(with_if=True)
        assert count(other) == 3 and len(calls) == 4
    m.graph.node.append(helper.make_node("Identity", ["y"], ["z"]))
    assert count(m) == 3  # a model changed after the block is read afresh


def test_a_pinned_model_is_read_once_across_shared_blocks_until_its_block_ends():
    calls = []

    @graph_index.per_model
    def count(model):
        calls.append(id(model))
        return len(model.graph.node)

    form, output = _model(), _model(with_if=True)
    with graph_index.pinned([form]):
        with graph_index.shared():  # the input cells' block
            assert count(form) == 2 and count(output) == 3
        assert count(form) == 2  # between blocks: still the pinned reading
        with graph_index.shared():  # a pass's block: the form kept, the output (not pinned) read again
            assert count(form) == 2 and count(output) == 3
        assert calls == [id(form), id(output), id(output)]
        twin = _model()  # equal bytes, another object: not pinned
        assert count(twin) == 2 and calls[-1] == id(twin)
    form.graph.node.append(helper.make_node("Identity", ["y"], ["z"]))
    assert count(form) == 3  # after the block: read afresh


def test_plan_is_never_stale_after_the_model_changes():
    m = _model()
    assert "r" in plan_for(m).main_shapes
    m.graph.value_info.append(helper.make_tensor_value_info("y2", TensorProto.FLOAT, ["N", 3]))
    m.graph.node.append(helper.make_node("Identity", ["y"], ["y2"]))
    assert "y2" in plan_for(m).main_shapes


def test_a_subgraph_without_a_node_is_a_scope_but_holds_no_subgraph():
    """``NodeRow.subgraph`` is "an attribute holds a non-empty graph" and ``scoped`` "typed GRAPH or
    GRAPHS, even an empty one" (kills ``kind in _MAYBE_GRAPH and (a.g.node or a.graphs)`` → ``or``, which
    took every GRAPH attribute for a subgraph). A Loop body that passes its carried value through has no
    node, and is a valid model onnxruntime runs."""
    import numpy as np
    import onnxruntime as ort

    def loop(body_nodes):
        out = "w" if body_nodes else "v"
        body = helper.make_graph(
            body_nodes,
            "body",
            [
                helper.make_tensor_value_info("i", TensorProto.INT64, []),
                helper.make_tensor_value_info("c", TensorProto.BOOL, []),
                helper.make_tensor_value_info("v", TensorProto.FLOAT, [2]),
            ],
            [
                helper.make_tensor_value_info("c", TensorProto.BOOL, []),
                helper.make_tensor_value_info(out, TensorProto.FLOAT, [2]),
            ],
        )
        g = helper.make_graph(
            [helper.make_node("Loop", ["n", "", "x"], ["y"], body=body)],
            "g",
            [
                helper.make_tensor_value_info("n", TensorProto.INT64, []),
                helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
            ],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        )
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
        onnx.checker.check_model(m, full_check=True)
        return m

    empty, neg = loop([]), loop([helper.make_node("Neg", ["v"], ["w"])])
    session = ort.InferenceSession(empty.SerializeToString(), providers=["CPUExecutionProvider"])
    feeds = {"n": np.array(2, np.int64), "x": np.array([1, 2], np.float32)}
    assert session.run(None, feeds)[0].tolist() == [1, 2]
    (row,) = graph_index.index_of(empty).nodes
    assert (row.subgraph, row.scoped) == (False, True)
    (row,) = graph_index.index_of(neg).nodes
    assert (row.subgraph, row.scoped) == (True, True)
