"""Gemm ↔ MatMul + Add (issue 15): transA/transB/alpha/beta and C broadcast, verified by the gate."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import pytest

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES, verify_equivalent

from ._models import feeds, named

LIGHT = Path(onnx.__file__).parent / "backend/test/data/light"
W = [
    tensor("w", np.linspace(-1, 1, 15, dtype=np.float32).reshape(3, 5)),
    tensor("wt", np.linspace(-1, 1, 15, dtype=np.float32).reshape(5, 3)),
    tensor("c", np.arange(5, dtype=np.float32)),
    tensor("c2", np.ones((1, 5), np.float32)),
    tensor("cm", np.ones((4, 1), np.float32)),
]
GEMMS = """g (float[4, 3] x, float[3, 4] xt) => (float[4, 5] a, float[4, 5] b, float[4, 5] d, float[4, 5] e) {
    a = Gemm(x, w, c)
    b = Gemm<transA = 1, transB = 1, alpha = 0.5, beta = 2.0>(xt, wt, c2)
    d = Gemm<alpha = 3.0>(x, w)
    e = Gemm<beta = 0.25>(x, w, cm)
}"""


def test_gemm_spelled_as_matmul_add_passes_the_gate_and_back():
    m = named(GEMMS, opset=13, initializers=W)
    mutant, applied = REWRITES["gemm-to-matmul-add"].apply(m)
    assert list(applied.nodes) == ["n0", "n1", "n2", "n3"]
    assert "Gemm" not in [n.op_type for n in mutant.graph.node]
    ops = [n.op_type for n in mutant.graph.node if n.output[0] == "b" or n.name.startswith("n1_")]
    assert ops.count("Transpose") == 2 and ops.count("Mul") == 2 and ops[-1] == "Add"
    verify_equivalent(m, mutant, feeds(m), "gemm-to-matmul-add")
    back, applied = REWRITES["matmul-add-to-gemm"].apply(mutant)
    assert list(applied.nodes) == [
        "n0_matmul_node",
        "n3_matmul_node",
    ]  # n1, n2 end in Mul (alpha); n3 adds Mul(C, beta)
    verify_equivalent(m, back, feeds(m), "matmul-add-to-gemm")


def test_matmul_add_becomes_gemm_only_for_2d_operands_and_fitting_bias():
    m = named(
        """g (float[N, 3] x, float[2, N, 3] x3) => (float[N, 5] y, float[2, N, 5] z, float[N, 5] u) {
        p = MatMul(x, w)
        y = Add(c, p)
        q = MatMul(x3, w)
        z = Add(q, c)
        r = MatMul(x, w)
        u = Add(r, r)
    }""",
        opset=13,
        initializers=W,
    )
    mutant, applied = REWRITES["matmul-add-to-gemm"].apply(m)
    assert list(applied.nodes) == ["n0"]  # rank-3 MatMul and MatMul read twice by one Add are left alone
    gemm = next(n for n in mutant.graph.node if n.op_type == "Gemm")
    assert (gemm.op_type, list(gemm.input), list(gemm.output)) == ("Gemm", ["x", "w", "c"], ["y"])
    verify_equivalent(m, mutant, feeds(m), "matmul-add-to-gemm")


def test_bias_that_would_grow_the_output_is_not_a_gemm_c():
    m = named(
        """g (float[1, 3] x, float[4, 5] big) => (float[4, 5] y) {
        p = MatMul(x, w)
        y = Add(p, big)
    }""",
        opset=13,
        initializers=W,
    )
    assert REWRITES["matmul-add-to-gemm"].apply(m) is None


def test_gemm_before_opset_7_is_left_alone():
    m = named("""g (float[4, 3] x) => (float[4, 5] a) { a = Gemm(x, w, c) }""", opset=7, initializers=W)
    m.opset_import[0].version = 6
    assert REWRITES["gemm-to-matmul-add"].apply(m) is None


@pytest.mark.parametrize("rid", ["gemm-to-matmul-add"])
def test_on_a_real_model(rid):
    m = onnx.load(LIGHT / "light_bvlc_alexnet.onnx")
    mutant, applied = REWRITES[rid].apply(m)
    assert applied.count == 3
    verify_equivalent(m, mutant, feeds(m), rid)
