"""Neighbours keep the base's unnamed nodes (round 10e, M105): IR.md "Nodes" makes a node's name optional, and a
pass that derives the names of what it inserts from ``node.name`` (onnxruntime 1.23.2's float16 conversion:
``node.name + "_input_cast_" + i``) collides only where two such nodes are both unnamed. The neighbours are built on
:func:`passcheck.mutations.forms.named`'s copy (a node site is labelled ``n<index>_<OpType>``), and before round 10e
the hunt judged that copy: an unnamed node never reached a pass through a neighbour. Real onnx shape inference,
real onnxruntime runs through the hunt's own judge (:func:`passcheck.hunt.vary_probe.judge`)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_probe, vary_struct
from passcheck.hunt.probe import Setting
from passcheck.mutations.forms import named
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from passcheck.signature import site_ops

PID = "planted:cast-named-by-node"


def _base(max_name: str = "") -> onnx.ModelProto:
    """``s = Add(x, w); y = Max(s, w)``, the Add named ``add``, the Max named ``max_name`` (unnamed by default)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    w = numpy_helper.from_array(np.full((2, 3), 0.5, np.float32), "w")
    nodes = [helper.make_node("Add", ["x", "w"], ["s"], name="add"), helper.make_node("Max", ["s", "w"], ["y"])]
    nodes[1].name = max_name
    graph = helper.make_graph(nodes, "g", [x], [y], [w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _cast_named_by_node(model: onnx.ModelProto) -> onnx.ModelProto:
    """A planted pass in the manner of onnxruntime ≤ 1.23.2's float16 conversion: every Max input read through a
    Cast whose output is named after the *node* (``<node.name>_input_cast_<i>``), unique only if node names are."""
    out = []
    for n in model.graph.node:
        if n.op_type == "Max":
            for i, v in enumerate(n.input):
                cast = f"{n.name}_input_cast_{i}"
                out.append(helper.make_node("Cast", [v], [cast], to=TensorProto.FLOAT))
                n.input[i] = cast
        out.append(n)
    del model.graph.node[:]
    model.graph.node.extend(out)
    return model


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def test_a_neighbour_keeps_the_base_node_names_and_its_copy_of_an_unnamed_node_is_unnamed():
    form = f"vary:{vary_struct.COPY}@y"
    built, labels = variation.build(_base(), form)
    assert [(n.op_type, n.name) for n in built.graph.node] == [("Add", "add"), ("Max", ""), ("Max", "")]
    assert labels == ["y"]
    labelled, _ = variation.build(_base(), form, labelled=True)  # the composed rewrites' label space
    assert [n.name for n in labelled.graph.node] == ["add", "n1_Max", "n1_Max__copy"]
    kept, _ = variation.build(_base("m"), form)  # a named node keeps its name, its copy a name of its own
    assert [n.name for n in kept.graph.node] == ["add", "m", "m__copy"]


def test_a_node_site_is_still_labelled_and_read_by_position_on_an_unnamed_node():
    """``attr-<name>``-like node sites keep their ``n<index>_<OpType>`` label; the neighbour's node is unnamed and
    the signature's op types come from the base's node-named copy (:mod:`.env_vary`)."""
    form = "vary:value-zero@w"
    built, labels = variation.build(_base(), form)
    assert built.graph.node[1].name == "" and labels == ["w"]
    assert site_ops([_base(), named(_base()), built], ["n1_Max"]) == {"Max"}


@pytest.mark.parametrize(("max_name", "found"), [("", True), ("m", False)])
def test_a_pass_naming_insertions_after_the_node_collides_on_two_unnamed_copies(max_name, found, ex):
    """The hunt's own judge of ``fanout-copy@y``: two unnamed Max give two Casts writing ``_input_cast_0``
    (``invalid-model``); named ones (``m``, ``m__copy``) do not; the base alone is right either way."""
    register_pass(FunctionAdapter(PID, _cast_named_by_node))
    try:
        outcome = vary_probe.judge(Setting("vary-test/unnamed"), _base(max_name), f"vary:{vary_struct.COPY}@y", PID, ex)
    finally:
        unregister_pass(PID)
    assert outcome.status == "done", outcome
    kinds = {f.kind for f in outcome.findings}
    assert ("invalid-model" in kinds) is found, kinds
