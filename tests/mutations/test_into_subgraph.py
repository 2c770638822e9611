"""A main-graph node (or chain) computed inside an If with equal branches or a Loop run once: the
mutants pass the full checker and compute the original's outputs under onnxruntime."""

from __future__ import annotations

import numpy as np
import onnx
import pytest

from passcheck.cases.builders import tensor
from passcheck.errors import PasscheckInternalError
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.into_subgraph import LOOP_ONCE

from ._models import W, feeds, named


def _rewrite(rid):
    """The registered rewrite ``rid``, or the unregistered LOOP_ONCE (see its comment)."""
    return LOOP_ONCE if rid == LOOP_ONCE.id else REWRITES[rid]


IDS = ("node-in-if-const", "node-in-if-opaque", "chain-in-if-const", "chain-in-if-opaque", "node-in-loop-once")
CHAINS = ("chain-in-if-const", "chain-in-if-opaque")

#: Conv → Relu (a graph output), MatMul → Add (a graph output also read by Split), Softmax, Split (two outputs).
KINDS = """g (float[N, 3, 5, 5] x, float[4, 4] a) => (float[N, 2, 3, 3] y, float[4, 4] z, float[4, 2] s0,
                                                   float[4, 2] s1, float[4, 4] sm) {
    c = Conv(x, w)
    y = Relu(c)
    p = MatMul(a, b)
    z = Add(p, a)
    s0, s1 = Split<axis = 1>(z)
    sm = Softmax<axis = -1>(a)
}"""
B = tensor("b", np.linspace(-2, 2, 16, dtype=np.float32).reshape(4, 4))


def _kinds(opset: int = 13) -> onnx.ModelProto:
    return named(KINDS, opset=opset, initializers=[W, B])


def _branches(if_node: onnx.NodeProto) -> tuple[onnx.GraphProto, onnx.GraphProto]:
    got = {a.name: a.g for a in if_node.attribute}
    return got["then_branch"], got["else_branch"]


def _shape_of(g: onnx.GraphProto) -> list[tuple]:
    """The nodes of ``g`` with names erased: op, attributes, and inputs (outer names kept, body names by position)."""
    local = {o: f"%{i}" for i, o in enumerate(o for n in g.node for o in n.output)}
    return [
        (n.op_type, n.domain, [local.get(x, x) for x in n.input], [a.SerializeToString() for a in n.attribute])
        for n in g.node
    ]


@pytest.mark.parametrize("rid", IDS)
def test_mutants_pass_the_full_checker_and_compute_the_same(rid):
    m = _kinds()
    mutant, applied = _rewrite(rid).apply(m)
    # z (n3) is read twice: a chain stops there
    expected = ["n0..n1", "n2..n3"] if rid in CHAINS else ["n0", "n1", "n2", "n3", "n4", "n5"]
    assert list(applied.nodes) == expected
    onnx.checker.check_model(mutant, full_check=True)
    verify_equivalent(m, mutant, feeds(m), rid)
    wrapper = "Loop" if rid == "node-in-loop-once" else "If"
    assert [n.op_type for n in mutant.graph.node].count(wrapper) == len(expected)
    left = {"Softmax", "Split"} if rid in CHAINS else set()
    assert {"Conv", "MatMul", "Softmax", "Split"} & {n.op_type for n in mutant.graph.node} == left


@pytest.mark.parametrize("rid", IDS[:4])
def test_the_two_branches_compute_the_same_nodes(rid):
    mutant, _ = _rewrite(rid).apply(_kinds())
    ifs = [n for n in mutant.graph.node if n.op_type == "If"]
    for n in ifs:
        then, other = _branches(n)
        assert _shape_of(then) == _shape_of(other)
        assert [o.type for o in then.output] == [o.type for o in other.output]
        assert len(n.output) == len(then.output)
    assert any(len(_branches(n)[0].node) == 2 for n in ifs) == (rid in CHAINS)


def test_a_wrong_else_branch_is_caught_when_the_else_branch_runs():
    """The opaque condition is IsNaN(sum of x): false on finite feeds, so onnxruntime runs the else
    branch, and a planted difference there is a parity failure of the gate."""
    m = _kinds()
    mutant, _ = REWRITES["node-in-if-opaque"].apply(m, ["n5"])
    if_node = next(n for n in mutant.graph.node if n.op_type == "If")
    _branches(if_node)[1].node[0].attribute[0].i = 0  # Softmax over axis 0 instead of -1
    with pytest.raises(PasscheckInternalError, match="node-in-if-opaque"):
        verify_equivalent(m, mutant, feeds(m), "node-in-if-opaque")


def test_opaque_condition_is_data_not_a_constant():
    mutant, _ = REWRITES["node-in-if-opaque"].apply(_kinds())
    head = [n.op_type for n in mutant.graph.node[:2]]
    assert head == ["ReduceSum", "IsNaN"] and mutant.graph.node[0].input[0] == "x"
    assert {n.input[0] for n in mutant.graph.node if n.op_type == "If"} == {mutant.graph.node[1].output[0]}
    assert "Constant" not in [n.op_type for n in mutant.graph.node]


def test_loop_once_before_squeeze_13_uses_the_axes_attribute():
    m = _kinds(opset=11)
    mutant, applied = LOOP_ONCE.apply(m, ["n5"])
    squeeze = next(n for n in mutant.graph.node if n.op_type == "Squeeze")
    assert len(squeeze.input) == 1 and [a.ints for a in squeeze.attribute] == [[0]]
    verify_equivalent(m, mutant, feeds(m), "node-in-loop-once")


def test_what_is_never_moved():
    m = named(
        """g (float[N, 3] x) => (float[N, 3] y, float[N, 3] u) {
        k = Constant<value = float {2.0}>()
        y = Mul(x, k)
        u = Dropout(x)
    }""",
        opset=13,
    )
    for rid in ("node-in-if-const", "node-in-loop-once"):
        _, applied = _rewrite(rid).apply(m)
        assert list(applied.nodes) == ["n1"]  # not the Constant, not the random Dropout
    assert REWRITES["node-in-if-const"].apply(_kinds(opset=8)) is None  # Constant-1 has no bool
    assert LOOP_ONCE.apply(_kinds(opset=10)) is None  # Loop-1 needs a carried value
    ints = named("g (int64[3] i) => (int64[3] j) { j = Neg(i) }", opset=13)
    assert REWRITES["node-in-if-opaque"].apply(ints) is None  # no float graph input to derive a condition from


def test_dim_names_shape_inference_made_up_are_not_written_into_bodies():
    """onnx shape inference names a Loop scan output's iteration axis ``unk__0``; a body output typed
    with it would claim a size the model never declared (one name, one size, IR.md §Static tensor shapes)."""
    m, _ = LOOP_ONCE.apply(named("g (float[N, 3] x) => (float[N, 3] y) { y = Relu(x) }", opset=13))
    loop = next(n for n in m.graph.node if n.op_type == "Loop")
    m.graph.node.append(onnx.helper.make_node("Neg", [loop.output[0]], ["z"], name="neg"))
    m.graph.output.append(onnx.helper.make_tensor_value_info("z", onnx.TensorProto.FLOAT, [None, "N", 3]))
    mutant, _ = REWRITES["node-in-if-const"].apply(m, ["neg"])
    then, _ = _branches(next(n for n in mutant.graph.node if n.op_type == "If"))
    dims = [d.dim_param or d.dim_value or None for d in then.output[0].type.tensor_type.shape.dim]
    assert dims == [None, "N", 3]
    verify_equivalent(m, mutant, feeds(m), "node-in-if-const")
