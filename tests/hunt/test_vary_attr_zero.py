"""A float attribute at zero (passcheck/hunt/vary_attr_zero.py, round 18e, M359): offered on every draw for a
factor the formula multiplies by, never for one it divides by; the neighbour is valid and computes the formula
with the term erased (real onnxruntime sessions)."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_attr_zero

W = np.arange(24, dtype=np.float32).reshape(4, 6) / 10
C = np.array([1.0, -2.0, 3.0, -4.0], np.float32)


def _model() -> onnx.ModelProto:
    nodes = [
        helper.make_node("Gemm", ["x", "W", "C"], ["g"], transB=1, alpha=0.5, name="gm"),  # beta left at 1.0
        helper.make_node("LeakyRelu", ["g"], ["l"], name="lr"),  # alpha left at 0.01
        helper.make_node("Celu", ["l"], ["c"], alpha=2.0, name="ce"),  # x / alpha
        helper.make_node("LayerNormalization", ["c", "s"], ["y"], epsilon=1e-5, name="ln"),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])],
        [numpy_helper.from_array(v, k) for k, v in {"W": W, "C": C, "s": np.ones(4, np.float32)}.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def _run(model: onnx.ModelProto, x: np.ndarray, output: str) -> np.ndarray:
    model = onnx.ModelProto.FromString(model.SerializeToString())
    model.graph.output.append(helper.make_tensor_value_info(output, TensorProto.FLOAT, None))
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    return sess.run([output], {"x": x})[0]


def test_each_multiplying_float_attribute_gets_its_zero_on_every_draw_and_no_divisor_does():
    base = _model()
    zeros = {"vary:attr-alpha@gm=0", "vary:attr-beta@gm=0", "vary:attr-alpha@lr=0"}
    for seed in range(8):  # the nudges are sampled (PER_KIND); the zero is listed beyond the sample
        forms = set(variation.neighbours(base, random.Random(seed)))
        assert zeros <= forms, (seed, sorted(f for f in forms if "attr-" in f))
        assert "vary:attr-alpha@ce=0" not in forms  # Celu: x / alpha
        assert "vary:attr-epsilon@ln=0" not in forms  # epsilon keeps a variance's square root from zero
    assert not vary_attr_zero.offers_zero("Gemm", "beta", 0.0)  # already zero: nothing to move
    assert not vary_attr_zero.offers_zero("Gemm", "transB", 1)  # an INT flag is another kind's


def test_the_zero_neighbour_is_valid_and_erases_the_scaled_term():
    base = _model()
    x = np.linspace(-1, 1, 18, dtype=np.float32).reshape(3, 6)
    built = variation.build(base, "vary:attr-beta@gm=0")
    assert built is not None
    beta0 = built[0]
    onnx.checker.check_model(beta0, full_check=True)
    gemm = next(n for n in beta0.graph.node if n.op_type == "Gemm")
    assert {a.name: helper.get_attribute_value(a) for a in gemm.attribute}["beta"] == 0.0
    # Operators.md Gemm: Y = alpha * A * B' + beta * C, so at beta = 0 the bias is gone and only it
    np.testing.assert_allclose(_run(beta0, x, "g"), 0.5 * x @ W.T, rtol=1e-6)
    np.testing.assert_allclose(_run(base, x, "g") - _run(beta0, x, "g"), np.broadcast_to(C, (3, 4)), rtol=1e-5)
    alpha0 = variation.build(base, "vary:attr-alpha@lr=0")[0]  # LeakyRelu at alpha 0 is Relu
    np.testing.assert_array_equal(_run(alpha0, x, "l"), np.maximum(_run(alpha0, x, "g"), 0))
