"""Structural neighbours (:mod:`passcheck.hunt.vary_struct`): an intermediate value also a graph output
(``expose``) or read by one more node (``fanout``), judged with real passes and real onnxruntime runs.

A planted elimination that merges ``Relu(Relu(x))`` into one Relu without asking whether the inner value
has other readers or is a graph output is right on the base and every spelling of it; only these neighbours
show it. The same elimination with the check (onnxruntime's ``graph_utils::CanRemoveNode`` precondition)
gives no finding on them.
"""

from __future__ import annotations

import random

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_probe, vary_struct
from passcheck.hunt.probe import Setting
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass


def _merge_relus(mode: str):
    """``a = Relu(x); b = Relu(a)`` → ``b = Relu(x)``, the inner Relu removed. ``mode``: ``checked`` only where
    ``a`` is read by that one node and is no graph output; ``unchecked`` everywhere (other readers of ``a`` are
    left dangling: an invalid model); ``rewires`` everywhere, other readers of ``a`` made to read ``x`` and ``a``
    dropped from the graph outputs (a valid model computing them wrong and missing an output)."""

    def rewrite(model: onnx.ModelProto) -> onnx.ModelProto:
        g = model.graph
        outputs = {o.name for o in g.output}
        producer = {v: n for n in g.node for v in n.output}
        readers: dict[str, int] = {}
        for n in g.node:
            for v in n.input:
                readers[v] = readers.get(v, 0) + 1
        for n in list(g.node):
            inner = producer.get(n.input[0]) if n.op_type == "Relu" else None
            if inner is None or inner.op_type != "Relu":
                continue
            a, x = inner.output[0], inner.input[0]
            if mode == "checked" and (readers.get(a) != 1 or a in outputs):
                continue
            g.node.remove(inner)
            if mode == "rewires":
                for other in g.node:
                    other.input[:] = [x if v == a else v for v in other.input]
                keep = [o for o in g.output if o.name != a]
                del g.output[:]
                g.output.extend(keep)
            n.input[0] = x
            break
        return model

    return rewrite


def _base(opset: int = 17) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
    w = numpy_helper.from_array(np.array([0.5, -1.0, 2.0, 0.25], np.float32), "w")
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="inner"),
        helper.make_node("Relu", ["a"], ["b"], name="outer"),
        helper.make_node("Mul", ["b", "w"], ["y"], name="scale"),
    ]
    graph = helper.make_graph(nodes, "relus", [x], [y], [w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def _judge(form: str, mode: str, ex):
    pid = f"planted:merge-relus-{mode}"
    register_pass(FunctionAdapter(pid, _merge_relus(mode)))
    try:
        return vary_probe.judge(Setting("vary-test/relus"), _base(), form, pid, ex)
    finally:
        unregister_pass(pid)


def test_sites_are_single_reader_intermediates_and_each_neighbour_is_valid():
    base = _base()
    forms = variation.neighbours(base, random.Random(0))
    struct = sorted(f for f in forms if variation.family(f) in vary_struct.KINDS and vary_struct.COPY not in f)
    # a and b are read by one node each; y is a graph output, x an input, w an initializer (read by one node)
    assert struct == [
        "vary:expose-input@x",
        "vary:expose@a",
        "vary:expose@b",
        "vary:fanout-initializer@w",
        "vary:fanout@a",
        "vary:fanout@b",
    ]
    # every node may be copied (site: its first output), graph output or not
    copies = vary_struct.candidates(base, variation._inferred(base))
    assert sorted(site for kind, site in copies if kind == vary_struct.COPY) == ["a", "b", "y"]
    exposed, _ = variation.build(base, "vary:expose@a")
    assert [o.name for o in exposed.graph.output] == ["y", "a"]
    assert exposed.graph.output[1].type.tensor_type.elem_type == TensorProto.FLOAT
    fanned, labels = variation.build(base, "vary:fanout@a")
    assert labels == ["a"] and [o.name for o in fanned.graph.output] == ["y", "a__fanout"]
    extra = fanned.graph.node[-1]
    assert (extra.op_type, list(extra.input)) == ("Neg", ["a"])
    for m in (exposed, fanned):
        onnx.checker.check_model(m, full_check=True)
    assert [o.name for o in base.graph.output] == ["y"]  # the base is never modified


def test_a_value_with_two_readers_or_a_graph_output_is_no_site():
    base = _base()
    base.graph.node.append(helper.make_node("Sigmoid", ["a"], ["s"]))  # a: two readers now
    base.graph.output.append(helper.make_tensor_value_info("s", TensorProto.FLOAT, ["N", 4]))
    assert vary_struct.sites(base, variation._inferred(base)) == ["b"]
    assert variation.build(base, "vary:expose@a") is None and variation.build(base, "vary:fanout@s") is None


@pytest.mark.parametrize(
    ("elem", "opset", "reader"),
    [
        (TensorProto.FLOAT, 17, "Neg"),
        (TensorProto.INT64, 17, "Neg"),
        (TensorProto.BOOL, 17, "Not"),
        (TensorProto.UINT8, 18, "BitwiseNot"),
        (TensorProto.UINT8, 17, "Abs"),
        (TensorProto.STRING, 17, None),
    ],
)
def test_the_fanout_reader_is_the_first_the_schema_and_a_cpu_kernel_accept(elem, opset, reader):
    model = helper.make_model(helper.make_graph([], "g", [], []), opset_imports=[helper.make_opsetid("", opset)])
    assert vary_struct._reader(model, elem) == reader


@pytest.mark.parametrize(
    ("form", "mode", "found"),
    [
        ("vary:expose@a", "unchecked", ("validity", "invalid-model")),  # graph output 'a' made by no node
        ("vary:fanout@a", "unchecked", ("validity", "invalid-model")),  # the new reader's input made by no node
        ("vary:expose@a", "rewires", ("numeric", "wrong-result")),  # graph output 'a' is missing
        ("vary:fanout@a", "rewires", ("numeric", "wrong-result")),  # Neg(x) where Neg(Relu(x)) is meant
    ],
)
def test_an_elimination_that_ignores_other_readers_is_found_through_a_structural_neighbour(form, mode, found, ex):
    out = _judge(form, mode, ex)
    assert out.status == "done", out
    # the base alone shows nothing under the same pass: every finding is the neighbour's
    assert found in {(f.oracle, f.kind) for f in out.findings}, out.findings


@pytest.mark.parametrize("form", ["vary:expose@a", "vary:fanout@a", "vary:expose@b", "vary:fanout@b"])
def test_the_elimination_that_checks_the_readers_gives_no_finding(form, ex):
    out = _judge(form, "checked", ex)
    assert out.status == "done" and out.findings == [], out


def test_a_neighbour_whose_interface_changed_otherwise_is_invalid(ex):
    base = _base()
    exposed, _ = variation.build(base, "vary:expose@a")
    assert vary_probe.invalid(Setting("vary-test/relus"), base, exposed, ex, "vary:expose@a") is None
    why = vary_probe.invalid(Setting("vary-test/relus"), base, exposed, ex, "vary:value-zero@w")
    assert why == "graph inputs/outputs changed"


def _cast_per_reader(model: onnx.ModelProto) -> onnx.ModelProto:
    """A planted pass in the manner of onnxruntime 1.25.1's float16 conversion: every Max input gets a Cast of
    its own named after the value it reads (``<value>_cast``), whoever else reads that value."""
    g = model.graph
    out = []
    for n in g.node:
        if n.op_type == "Max":
            for i, v in enumerate(n.input):
                out.append(helper.make_node("Cast", [v], [f"{v}_cast"], to=TensorProto.FLOAT))
                n.input[i] = f"{v}_cast"
        out.append(n)
    del g.node[:]
    g.node.extend(out)
    return model


def test_a_copied_node_shows_a_pass_that_names_its_insertions_per_value(ex):
    """``fanout-copy`` of a Max reading ``s = Add(x, w)``: two Max read ``s``, the planted pass writes ``s_cast``
    twice (SSA broken, ``invalid-model``); on the base it is right. The copy of an unnamed node is unnamed."""
    from passcheck.api import check_model

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    w = numpy_helper.from_array(np.ones((2, 3), np.float32), "w")
    nodes = [helper.make_node("Add", ["x", "w"], ["s"]), helper.make_node("Max", ["s", "w"], ["y"])]
    graph = helper.make_graph(nodes, "g", [x], [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])], [w])
    base = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    raw = onnx.ModelProto.FromString(base.SerializeToString())
    assert vary_struct.build(raw, vary_struct.COPY, "y", variation._inferred(raw))
    assert [(n.op_type, n.name, list(n.input)) for n in raw.graph.node[1:]] == [("Max", "", ["s", "w"])] * 2
    copied, _ = variation.build(base, f"vary:{vary_struct.COPY}@y", labelled=True)  # the label space: named
    named = [n.name for n in copied.graph.node if n.op_type == "Max"]
    assert named[1] == f"{named[0]}__copy", named
    assert vary_struct.added(vary_struct.COPY, "y", base) == 1 and copied.graph.output[1].name == "y__copy"
    register_pass(FunctionAdapter("test:cast-per-reader", _cast_per_reader))
    try:
        kinds = [
            {f.kind for f in c.findings}
            for m in (base, copied)
            for c in check_model(m, ["test:cast-per-reader"], name="copy").cells
            if c.pass_id == "test:cast-per-reader"
        ]
    finally:
        unregister_pass("test:cast-per-reader")
    assert "invalid-model" not in kinds[0] and "invalid-model" in kinds[1], kinds


def _erase_identities(checked: bool):
    """Each Identity → its readers read its input, the node dropped; ``checked``: only an Identity whose output is
    no graph output (onnxruntime's ``graph_utils::CanRemoveNode``: ``!graph.NodeProducesGraphOutput(node)``)."""

    def rewrite(model: onnx.ModelProto) -> onnx.ModelProto:
        g = model.graph
        outputs = {o.name for o in g.output}
        for n in [n for n in g.node if n.op_type == "Identity"]:
            if checked and n.output[0] in outputs:
                continue
            for other in g.node:
                other.input[:] = [n.input[0] if v == n.output[0] else v for v in other.input]
            g.node.remove(n)
        return model

    return rewrite


def test_a_passed_through_input_shows_an_identity_elimination_that_ignores_graph_outputs(ex):
    """``expose-input`` (M157): ``Identity(x)`` writes the new graph output ``x__passthrough``, a valid neighbour
    offered on graph inputs only (not on the initializer ``w``); an Identity elimination that forgets graph
    outputs leaves that output without a producer (``invalid-model``), the checked one gives no finding."""
    base = _base()
    kinds = {(k, site) for k, site in vary_struct.candidates(base, variation._inferred(base))}
    assert (vary_struct.PASSTHROUGH, "x") in kinds and (vary_struct.PASSTHROUGH, "w") not in kinds
    out, _ = variation.build(base, "vary:expose-input@x")
    assert [o.name for o in out.graph.output] == ["y", "x__passthrough"]
    assert (out.graph.node[-1].op_type, list(out.graph.node[-1].input)) == ("Identity", ["x"])
    onnx.checker.check_model(out, full_check=True)
    assert vary_probe.invalid(Setting("vary-test/relus"), base, out, ex, "vary:expose-input@x") is None
    found = {}
    for checked in (False, True):
        pid = f"planted:erase-identities-{checked}"
        register_pass(FunctionAdapter(pid, _erase_identities(checked)))
        try:
            found[checked] = vary_probe.judge(Setting("vary-test/relus"), base, "vary:expose-input@x", pid, ex)
        finally:
            unregister_pass(pid)
    assert found[False].status == found[True].status == "done", found
    assert ("validity", "invalid-model") in {(f.oracle, f.kind) for f in found[False].findings}, found[False]
    assert found[True].findings == [], found[True]
