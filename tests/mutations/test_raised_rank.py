"""A unary elementwise op on a rank-raised view (:mod:`passcheck.mutations.raised_rank`): where it applies, the
Unsqueeze / Squeeze spelled per opset, and onnxruntime computing the same tensor (values and shape) on both forms,
also on a zero-size feed."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from passcheck.mutations.registry import REWRITES

RID = "unary-raised-rank"


def model(opset: int, op: str = "Neg", x_dims=("N", 12)) -> onnx.ModelProto:
    """``y = op(Reshape(x, [-1, 3, 4]))``, then ``z = Add(y, y)`` (no unary op)."""
    nodes = [
        helper.make_node("Reshape", ["x", "s"], ["r"], name="reshape"),
        helper.make_node(op, ["r"], ["y"], name="f"),
        helper.make_node("Add", ["y", "y"], ["z"], name="add"),
    ]
    s = helper.make_tensor("s", TensorProto.INT64, [3], [-1, 3, 4])
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, list(x_dims))
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, [None, 3, 4])
    return helper.make_model(
        helper.make_graph(nodes, "g", [x], [z], [s]), opset_imports=[helper.make_opsetid("", opset)]
    )


def run(m: onnx.ModelProto, n: int) -> np.ndarray:
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": np.linspace(-2, 2, n * 12, dtype=np.float32).reshape(n, 12)})[0]


@pytest.mark.parametrize(("opset", "op"), [(11, "Neg"), (13, "Relu"), (18, "Sigmoid")])
def test_the_op_runs_on_a_leading_size_one_axis_and_gives_the_same_tensor(opset, op):
    m = model(opset, op)
    assert REWRITES[RID].sites(m) == ["f"]  # not the Reshape, not the Add
    mutant, _ = REWRITES[RID].apply(m)
    onnx.checker.check_model(mutant, full_check=True)
    ops = [n.op_type for n in mutant.graph.node if n.op_type != "Constant"]
    assert ops == ["Reshape", "Unsqueeze", op, "Squeeze", "Add"], ops
    unsq = next(n for n in mutant.graph.node if n.op_type == "Unsqueeze")
    assert (len(unsq.input), [a.name for a in unsq.attribute]) == ((2, []) if opset >= 13 else (1, ["axes"]))
    for n in (3, 0):  # a zero-size batch too
        want, got = run(m, n), run(mutant, n)
        assert got.shape == want.shape == (n, 3, 4) and np.array_equal(got, want)


def test_an_input_of_unknown_rank_is_no_site():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, None)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    graph = helper.make_graph([helper.make_node("Neg", ["x"], ["y"], name="f")], "g", [x], [y])
    assert REWRITES[RID].sites(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])) == []
