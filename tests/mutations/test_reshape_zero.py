"""``allowzero`` and literal zeros of Reshape (:mod:`passcheck.mutations.reshape_zero`, Operators.md Reshape-14):
where each rewrite applies, that onnxruntime computes the same tensor (values and shape) on both forms, also on
zero-size feeds, and that a neighbour stating an empty dim (``vary:input-fix-zero``) opens the literal-zero
spelling on a base that has none."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from passcheck.hunt import compose, variation
from passcheck.mutations.registry import REWRITES

SET, CLEAR, LITERAL = "reshape-allowzero-set", "reshape-allowzero-clear", "reshape-dims-literal-zero"


def chain(x_dims, shapes, allowzero=(), opset=14) -> onnx.ModelProto:
    """``x`` reshaped by each of ``shapes`` in turn (node ``r<k>``, ``allowzero=1`` where ``allowzero[k]``)."""
    nodes, inits, prev = [], [], "x"
    for k, s in enumerate(shapes):
        out = "y" if k == len(shapes) - 1 else f"m{k}"
        extra = {"allowzero": 1} if k < len(allowzero) and allowzero[k] else {}
        nodes.append(helper.make_node("Reshape", [prev, f"s{k}"], [out], name=f"r{k}", **extra))
        inits.append(helper.make_tensor(f"s{k}", TensorProto.INT64, [len(s)], s))
        prev = out
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, x_dims)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * len(shapes[-1]))
    graph = helper.make_graph(nodes, "reshapes", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def run(model: onnx.ModelProto, dims) -> np.ndarray:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    x = np.arange(int(np.prod(dims)), dtype=np.float32).reshape(dims)
    return sess.run(None, {"x": x})[0]


@pytest.mark.parametrize(
    ("x_dims", "shapes", "allowzero", "expected"),
    [
        (["N", 12], [[-1, 3, 4]], (), {SET: ["r0"], CLEAR: [], LITERAL: []}),  # no 0: either allowzero
        ([2, 12], [[0, 3, 4]], (), {SET: [], CLEAR: [], LITERAL: []}),  # the 0 copies 2: allowzero 1 would not
        ([0, 12], [[0, 3, 4]], (), {SET: ["r0"], CLEAR: [], LITERAL: ["r0"]}),  # the 0 copies a stated 0
        ([0, 12], [[0, 3, 4]], (1,), {SET: [], CLEAR: ["r0"], LITERAL: []}),
        ([0, 12], [[3, 4, 0]], (1,), {SET: [], CLEAR: [], LITERAL: []}),  # index 2: x has no dim there
        ([0, 12], [[-1], [1, -1, 12]], (), {SET: ["r0", "r1"], CLEAR: [], LITERAL: ["r0", "r1"]}),
        (["N", 12], [[-1, 3, 4]], (), {SET: ["r0"], CLEAR: [], LITERAL: []}),
    ],
)
def test_sites_follow_the_allowzero_rule_and_both_forms_compute_the_same(x_dims, shapes, allowzero, expected):
    model = chain(x_dims, shapes, allowzero)
    assert {rid: REWRITES[rid].sites(model) for rid in expected} == expected
    fed = [d if isinstance(d, int) else 3 for d in x_dims]
    for rid, sites in expected.items():
        if not sites:
            continue
        mutant, _ = REWRITES[rid].apply(model)
        onnx.checker.check_model(mutant)
        want, got = run(model, fed), run(mutant, fed)
        assert got.shape == want.shape and np.array_equal(got, want), (rid, got.shape, want.shape)


def test_the_literal_zero_spelling_writes_the_output_dims_with_allowzero():
    mutant, _ = REWRITES[LITERAL].apply(chain([0, 12], [[-1], [1, -1, 12]]))
    consts = {
        n.output[0]: list(onnx.numpy_helper.to_array(n.attribute[0].t))
        for n in mutant.graph.node
        if n.op_type == "Constant"
    }
    reshapes = [n for n in mutant.graph.node if n.op_type == "Reshape"]
    assert [consts[n.input[1]] for n in reshapes] == [[0], [1, 0, 12]]
    assert all([(a.name, a.i) for a in n.attribute] == [("allowzero", 1)] for n in reshapes)


def test_before_opset_14_there_is_no_allowzero():
    model = chain(["N", 12], [[-1, 3, 4]], opset=13)
    assert [REWRITES[r].sites(model) for r in (SET, CLEAR, LITERAL)] == [[], [], []]


def test_a_stated_empty_dim_opens_the_literal_zero_spelling_on_a_neighbour():
    """The base states ``N``; ``vary:input-fix-zero@N`` writes it 0, so the output dims are static with a 0:
    the literal-zero spelling is a site of the neighbour that the base does not have (a fresh composition)."""
    base = chain(["N", 12], [[-1], [1, -1, 12]])
    assert REWRITES[LITERAL].sites(base) == []
    assert REWRITES[LITERAL].sites(variation.build(base, "vary:input-fix-zero@N")[0]) == ["r0", "r1"]
    fresh, _ = compose.compositions(base, "vary:input-fix-zero@N", random.Random(0))
    assert [f for f in fresh if f.startswith(f"vary:input-fix-zero@N>{LITERAL}@r")], fresh
    neighbour, mutant, _ = compose.build(base, f"vary:input-fix-zero@N>{LITERAL}@r1")
    assert run(mutant, [0, 12]).shape == run(neighbour, [0, 12]).shape == (1, 0, 12)
