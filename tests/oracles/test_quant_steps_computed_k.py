"""M421: a product of computed operands keeps the rounding bound (:mod:`passcheck.oracles.quant_steps`).

``a = K (a1 m2 + m1 a2 + a1 a2)`` read ``K`` off a constant operand only, so a MatMul or Gemm of two fed values
(``MatMul(A, Transpose(B))``, the ``gemm-written/*`` bases) made every bound downstream unknown, and the numeric
oracle judged an optimizer's output at the dtype's ``atol``: onnxruntime's DoubleQDQPairsRemover collapsing a
requantized input (``Q(1/32) → DQ → Q(1/16) → DQ``, the ``vary:qdq-requant`` neighbour; an approximation its own
source states, docs/found.md's "approximate by design") was then a ``wrong-result`` of one output step (round 19k).
Two exact operands need no ``K`` (``K · 0 = 0``), and ``K`` is also the first operand's last dim (Operators.md
MatMul: numpy.matmul; Gemm: ``A`` is ``(M, K)``, ``(K, M)`` with ``transA``). Real onnxruntime runs.
Planted break: ``_product`` returning ``(None, None)`` whenever the constant operand's shape is unknown (the old rule)
fails the first test; a bound of 0 for a rounded product fails the second.
"""

from __future__ import annotations

import numpy as np
import onnxruntime as ort
from onnx import parser

from passcheck.oracles import quant_steps
from passcheck.oracles.numeric import pass_tolerance

# A: requantized (1/32 then 1/16), B read through a Transpose and requantized too; the product requantized at 1/16.
MODEL = parser.parse_model("""<ir_version: 8, opset_import: ["" : 17]>
g (float[3, 4] A, float[5, 4] B) => (float[3, 5] Y)
  <float s1 = {0.03125}, float s2 = {0.0625}, uint8 z = {128}> {
  bt = Transpose <perm = [1, 0]> (B)
  a1 = QuantizeLinear (A, s1, z)   a2 = DequantizeLinear (a1, s1, z)
  a3 = QuantizeLinear (a2, s2, z)  a4 = DequantizeLinear (a3, s2, z)
  b1 = QuantizeLinear (bt, s1, z)  b2 = DequantizeLinear (b1, s1, z)
  b3 = QuantizeLinear (b2, s2, z)  b4 = DequantizeLinear (b3, s2, z)
  p = MatMul (a4, b4)
  q = QuantizeLinear (p, s2, z)    Y = DequantizeLinear (q, s2, z) }""")


def _run(level: ort.GraphOptimizationLevel, feeds: dict) -> np.ndarray:
    opts = ort.SessionOptions()
    opts.graph_optimization_level = level
    sess = ort.InferenceSession(MODEL.SerializeToString(), opts, providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)[0]


def test_a_product_of_fed_values_has_a_bound_that_holds_for_onnxruntime():
    bound = quant_steps.allowance(MODEL, 1.0, False)["Y"]
    assert bound is not None and bound > 0.0625, bound
    rng = np.random.default_rng(3)
    worst = 0.0
    for _ in range(4):
        feeds = {"A": rng.uniform(-3, 3, (3, 4)).astype(np.float32), "B": rng.uniform(-3, 3, (5, 4)).astype(np.float32)}
        want = _run(ort.GraphOptimizationLevel.ORT_DISABLE_ALL, feeds)
        got = _run(ort.GraphOptimizationLevel.ORT_ENABLE_ALL, feeds)
        rtol, atol = pass_tolerance(None, want, None, None, bound)
        assert np.allclose(got, want, rtol=rtol, atol=atol), (np.abs(got - want).max(), bound)
        worst = max(worst, float(np.abs(got - want).max()))
    # the collapse moved something beyond the dtype's own tolerance: without the bound this was a finding
    assert worst > 1e-4, worst


def test_a_planted_shift_beyond_the_bound_is_still_caught():
    bound = quant_steps.allowance(MODEL, 1.0, False)["Y"]
    feeds = {"A": np.full((3, 4), 0.5, np.float32), "B": np.full((5, 4), -0.25, np.float32)}
    want = _run(ort.GraphOptimizationLevel.ORT_DISABLE_ALL, feeds)
    bad = want + np.float32(2 * bound)  # a pass adding twice the worst rounding it may move
    rtol, atol = pass_tolerance(None, want, None, None, bound)
    assert not np.allclose(bad, want, rtol=rtol, atol=atol)
