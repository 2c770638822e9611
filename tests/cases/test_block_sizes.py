"""``pattern-ort-qdq/matmul-4bit-block-sizes`` (cases/patterns_ort_qdq.py): one blocked uint4 weight spelled at
several block sizes (Operators.md DequantizeLinear-21: with one scale row along an axis of length K any
``block_size >= K`` is accepted), each form computing the same weight.

A planted pass that folds a blocked DequantizeLinear into a float weight and counts the blocks as
``K // block_size`` (floor, where the spec's scale shape is ``ceil(K / block_size)``) is right on the common
form and on a block as long as K, and zeroes the weight of a block longer than K: the numeric oracle
catches it on those forms only. The same fold counting ``ceil`` gives no finding.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

from passcheck.cases import registry
from tests.quality.test_planted_xformers import _findings

CASE = "pattern-ort-qdq/matmul-4bit-block-sizes"


def _fold_blocked_dq(ceil: bool):
    """Every ``DequantizeLinear(w, s, axis=0, block_size=B)`` on initializers → a float initializer; the
    number of scale rows used is ``ceil(K / B)`` (right) or ``K // B`` (rows past it get scale 0)."""

    def fold(model: onnx.ModelProto) -> onnx.ModelProto:
        g = model.graph
        inits = {t.name: t for t in g.initializer}
        for node in list(g.node):
            attrs = {a.name: a.i for a in node.attribute}
            if node.op_type != "DequantizeLinear" or "block_size" not in attrs or attrs.get("axis", 1) != 0:
                continue
            w = numpy_helper.to_array(inits[node.input[0]]).astype(np.float32)
            s = numpy_helper.to_array(inits[node.input[1]]).astype(np.float32)
            k, b = w.shape[0], attrs["block_size"]
            blocks = -(-k // b) if ceil else k // b
            rows = np.zeros_like(w)
            for r in range(k):
                if r // b < blocks:
                    rows[r] = s[r // b]
            g.initializer.append(numpy_helper.from_array(w * rows, node.output[0]))
            g.node.remove(node)
        return model

    fold.__name__ = f"fold_blocked_dq_{'ceil' if ceil else 'floor'}"
    return fold


def _numeric_forms(fn) -> set[str]:
    return {f.form for f in _findings(CASE, fn) if f.oracle == "numeric"}


def test_every_form_is_valid_states_its_block_size_and_computes_the_same_values():
    case = registry().get(CASE)
    assert set(case.forms) == {"common", "one-block", "block-past-axis", "block-far-past-axis"}
    x = np.random.default_rng(0).standard_normal((2, 4, 32)).astype(np.float32)
    sizes, outs = {}, {}
    for form in case.forms:
        model = case.build(form)
        onnx.checker.check_model(model, full_check=True)
        (dq,) = [n for n in model.graph.node if n.op_type == "DequantizeLinear"]
        sizes[form] = next(a.i for a in dq.attribute if a.name == "block_size")
        so = ort.SessionOptions()
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
        sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
        outs[form] = sess.run(None, {"x": x})[0]
    assert sizes == {"common": 16, "one-block": 32, "block-past-axis": 64, "block-far-past-axis": 4096}
    for form, out in outs.items():
        np.testing.assert_array_equal(out, outs["common"], err_msg=form)


def test_a_fold_counting_blocks_by_floor_is_caught_on_the_blocks_longer_than_the_axis_only():
    assert _numeric_forms(_fold_blocked_dq(ceil=False)) == {"block-past-axis", "block-far-past-axis"}
    assert _numeric_forms(_fold_blocked_dq(ceil=True)) == set()
