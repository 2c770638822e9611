"""Parity and patterns cut by a node the pass kept (:func:`passcheck.oracles.parity._barrier`): a missed fusion on a
form whose spelling put a node between the pattern's nodes, which the pass then kept, names that node
(``behind [OP]``), and the hunt's and triage's root-cause rule (:func:`passcheck.hunt.groups.rule_of`) groups on it;
when the pass removed the node the spelling added, the fusion missed is the fusion's and no barrier is named.
Real onnxruntime sessions (``ort:extended``: ConvActivationFusion) and two planted passes that differ only in
whether they remove an Identity after matching ``Neg(Neg(x))``."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import Subject, evaluate
from passcheck.hunt.groups import rule_of
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass


def _conv_relu(through_sequence: bool) -> object:
    """``y = Relu(Conv(x, W))``; ``through_sequence``: the Conv's output passed through
    ``SequenceAt(SequenceConstruct(c), 0)`` first (Operators.md: the same tensor)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 2, 2])
    inits = [
        numpy_helper.from_array(np.linspace(-1, 1, 9, dtype=np.float32).reshape(1, 1, 3, 3), "W"),
        numpy_helper.from_array(np.array(0, np.int64), "zero"),
    ]
    nodes, cur = [helper.make_node("Conv", ["x", "W"], ["c"], name="conv")], "c"
    if through_sequence:
        nodes.append(helper.make_node("SequenceConstruct", ["c"], ["s"], name="seq"))
        nodes.append(helper.make_node("SequenceAt", ["s", "zero"], ["v"], name="at"))
        cur = "v"
    nodes.append(helper.make_node("Relu", [cur], ["y"], name="relu"))
    graph = helper.make_graph(nodes, "g", [x], [y], inits if through_sequence else inits[:1])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _neg_neg(between: str | None) -> object:
    """``y = Abs(<between>(Neg(Neg(x))))``: the Identity, if any, between the two Negs."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])
    nodes, cur = [helper.make_node("Neg", ["x"], ["a"], name="neg0")], "a"
    if between:
        nodes.append(helper.make_node(between, [cur], ["b"], name="mid"))
        cur = "b"
    nodes.append(helper.make_node("Neg", [cur], ["n"], name="neg1"))
    nodes.append(helper.make_node("Abs", ["n"], ["y"], name="abs"))
    return helper.make_model(helper.make_graph(nodes, "g", [x], [y]), opset_imports=[helper.make_opsetid("", 17)])


def _planted(remove_identity: bool):
    """Drop ``Neg(Neg(v))`` where the two Negs are adjacent (their reader reads ``v``); then, if ``remove_identity``,
    bypass every Identity (after the fold: the fold never sees through one)."""

    def bypass(g, n):
        for r in g.node:
            r.input[:] = [n.input[0] if i == n.output[0] else i for i in r.input]
        g.node.remove(n)

    def run(model):
        g = model.graph
        for n in [n for n in g.node if n.op_type == "Neg"]:
            inner = next((p for p in g.node if p.op_type == "Neg" and p.output[0] == n.input[0]), None)
            if inner is not None and n in g.node:
                bypass(g, n)
                bypass(g, inner)
        if remove_identity:
            for n in [n for n in g.node if n.op_type == "Identity"]:
                bypass(g, n)
        return model

    return run


@pytest.fixture(scope="module")
def executor():
    """An in-process executor (the planted passes are registered here)."""
    from passcheck.passes.isolation import executor_for

    ids = {"planted:negneg-keeps-identity": _planted(False), "planted:negneg-then-identity": _planted(True)}
    for pid, fn in ids.items():
        register_pass(FunctionAdapter(pid, fn, optimizes=True))
    with executor_for(None, timeout=120) as ex:
        yield ex
    for pid in ids:
        unregister_pass(pid)


def _parity(sid: str, forms: dict, pass_id: str, executor) -> list:
    cells = evaluate(Subject(id=sid, forms=forms, bindings=[{}]), [pass_id], executor=executor)
    ran = {c.form: c.status for c in cells if c.pass_id == pass_id}
    assert set(ran) == set(forms) and "error" not in ran.values(), ran
    return [f for c in cells for f in c.findings if f.oracle == "parity" and f.kind == "missed-optimization"]


def test_onnxruntime_fusion_cut_by_a_kept_sequence_round_trip_names_it(executor):
    forms = {"common": _conv_relu(False), "through-sequence": _conv_relu(True)}
    found = _parity("barrier/conv-relu", forms, "ort:extended", executor)
    assert [(f.form, f.details["kept_op_types"], f.details["barrier"]) for f in found] == [
        ("through-sequence", ["Conv", "Relu"], ["SequenceAt", "SequenceConstruct"])
    ], [f.message for f in found]
    clause = "; behind [SequenceAt, SequenceConstruct], which only 'through-sequence' spells and ort:extended kept"
    assert clause in found[0].message
    rule = rule_of("parity", "missed-optimization", found[0].message)
    assert rule == "behind [SequenceAt, SequenceConstruct] the pass kept"


def test_a_kept_identity_is_named_and_one_the_pass_removed_is_not(executor):
    forms = {"common": _neg_neg(None), "identity-between": _neg_neg("Identity")}
    kept = _parity("barrier/neg-neg", forms, "planted:negneg-keeps-identity", executor)
    assert [(f.details["kept_op_types"], f.details["barrier"]) for f in kept] == [(["Neg"], ["Identity"])]
    removed = _parity("barrier/neg-neg", forms, "planted:negneg-then-identity", executor)
    assert [(f.details["kept_op_types"], f.details["barrier"]) for f in removed] == [(["Neg"], [])]
    assert "behind" not in removed[0].message
    rule = rule_of("parity", "missed-optimization", removed[0].message)
    assert rule.startswith("kept [Neg] in ") and "behind" not in rule, rule


def test_barriers_group_different_fusions_into_one_cause():
    """Two fusions cut by the same op are one cause; another op is another."""
    m1 = (
        "ort:all removed Relu 1→0 in 'common' but 1→1 in 'u'; "
        "behind [SequenceAt], which only 'u' spells and ort:all kept"
    )
    m2 = (
        "ort:all removed Add 1→0 in 'common' but 1→1 in 'u'; LayerNormalization 1→0 in 'common' but 1→1 in 'u'; "
        "behind [SequenceAt], which only 'u' spells and ort:all kept"
    )
    m3 = "ort:all removed Relu 1→0 in 'common' but 1→1 in 'u'; behind [If], which only 'u' spells and ort:all kept"
    rules = {rule_of("parity", "missed-optimization", m) for m in (m1, m2)}
    assert rules == {"behind [SequenceAt] the pass kept"}
    assert rule_of("parity", "missed-optimization", m3) == "behind [If] the pass kept"


def test_barrier_causes_come_after_the_other_causes():
    """A hunt's causes: a fusion missed with nothing kept in its way is read first, whatever the counts."""
    from passcheck.hunt.groups import group

    def rec(i: int, message: str) -> dict:
        sig = {"pass_id": "ort:all", "oracle": "parity", "kind": "missed-optimization", "ops": ["Relu"]}
        return {"signature": {**sig, "rewrite": f"r{i}", "error": ""}, "message": message, "hits": 1}

    plain = "ort:all removed Relu 1→0 in 'common' but 1→1 in 'uncommon'"
    cut = plain + "; behind [If], which only 'uncommon' spells and ort:all kept"
    store = {f"k{i}": rec(i, cut) for i in range(3)} | {"k9": rec(9, plain)}
    assert [g.rule for g in group(store)] == ["kept [Relu] in uncommon", "behind [If] the pass kept"]
