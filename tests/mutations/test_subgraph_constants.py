"""Issue 18.3: the initializer ↔ Constant rewrites inside If / Loop bodies, verified by the gate."""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases import registry
from passcheck.mutations import REWRITES, verify_equivalent

from ._models import feeds, named

BODIES = """g (float[N, 4] x, bool c) => (float[N, 4] y, float[N, 4] z) {
    y = If(c) <then_branch = t () => (float[N, 4] a) {
        k = Constant<value = float {0.5}>()
        a = Mul(x, k)
    }, else_branch = e () => (float[N, 4] b) {
        b = Neg(x)
    }>
    trip = Constant<value = int64 {2}>()
    z = Loop(trip, , x) <body = b (int64 i, bool c_in, float[N, 4] acc_in) => (bool c_out, float[N, 4] acc_out) {
        c_out = Identity(c_in)
        one = Constant<value = float {1.0}>()
        acc_out = Add(acc_in, one)
    }>
}"""


def _with_else_initializer(m: onnx.ModelProto) -> onnx.ModelProto:
    """Give the If's else branch its own initializer (the textual syntax has no subgraph initializers)."""
    else_branch = m.graph.node[0].attribute[1].g
    else_branch.initializer.append(onnx.numpy_helper.from_array(np.array(2.0, np.float32), "two"))
    else_branch.node[0].CopyFrom(onnx.helper.make_node("Mul", ["x", "two"], ["b"]))
    return m


def test_constants_in_bodies_become_body_initializers():
    m = _with_else_initializer(named(BODIES, opset=13))
    onnx.checker.check_model(m)
    mutant, applied = REWRITES["subgraph-constant-to-initializer"].apply(m)
    assert list(applied.nodes) == ["k", "one"]  # the main-graph Constant 'trip' is not a subgraph's
    then_branch, body = mutant.graph.node[0].attribute[0].g, mutant.graph.node[2].attribute[0].g
    assert [t.name for t in then_branch.initializer] == ["k"] and [t.name for t in body.initializer] == ["one"]
    assert "Constant" not in [n.op_type for n in list(then_branch.node) + list(body.node)]
    verify_equivalent(m, mutant, feeds(m), "subgraph-constant-to-initializer")
    back, applied = REWRITES["subgraph-initializer-to-constant"].apply(mutant)
    assert sorted(applied.nodes) == ["k", "one", "two"]
    verify_equivalent(m, back, feeds(m), "subgraph-initializer-to-constant")


def test_body_initializer_becomes_a_constant_and_only_selects():
    m = _with_else_initializer(named(BODIES, opset=13))
    mutant, applied = REWRITES["subgraph-initializer-to-constant"].apply(m)
    assert list(applied.nodes) == ["two"]
    assert mutant.graph.node[0].attribute[1].g.node[0].op_type == "Constant"
    verify_equivalent(m, mutant, feeds(m), "subgraph-initializer-to-constant")
    assert REWRITES["subgraph-constant-to-initializer"].edit(m, frozenset({"one"})) == ["one"]


def test_main_graph_constants_are_not_subgraph_sites():
    m = registry().get("control-flow/if-constant-condition").forms["common"].build()
    assert REWRITES["subgraph-initializer-to-constant"].apply(m) is None
    assert REWRITES["subgraph-constant-to-initializer"].apply(m) is None


def test_ir3_keeps_subgraph_constants():
    m = named(BODIES, opset=13)
    m.ir_version = 3
    assert REWRITES["subgraph-constant-to-initializer"].apply(m) is None
