"""Values inside subgraphs come from one reference-evaluator run (passcheck/runtime/completion.py); where
that run's graph outputs depart from onnxruntime's on the same feeds, they are no evidence: the values
are unobservable with why, never taken from a run the two runtimes disagree on. The subject is the
evaluator's Loop with ``cond`` left out, which runs no iteration (docs/found.md row 270)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh

from passcheck.engine import plan_for
from passcheck.runtime.observe import observe_run

F, B, I64 = onnx.TensorProto.FLOAT, onnx.TensorProto.BOOL, onnx.TensorProto.INT64
FEEDS = {"x": np.array([1, -2], np.float32)}


def _loop(cond: str) -> onnx.ModelProto:
    """``y = Loop(3, cond, x)``, the body ``(i, c, v) → (c, v + x)``; ``cond``: ``""`` (left out) or ``"t"`` (true)."""
    body = oh.make_graph(
        [oh.make_node("Identity", ["c"], ["c_out"]), oh.make_node("Add", ["v", "x"], ["v_out"])],
        "body",
        [
            oh.make_tensor_value_info("i", I64, []),
            oh.make_tensor_value_info("c", B, []),
            oh.make_tensor_value_info("v", F, [2]),
        ],
        [oh.make_tensor_value_info("c_out", B, []), oh.make_tensor_value_info("v_out", F, [2])],
    )
    g = oh.make_graph(
        [oh.make_node("Loop", ["m", cond, "x"], ["y"], body=body)],
        "g",
        [oh.make_tensor_value_info("x", F, [2])],
        [oh.make_tensor_value_info("y", F, [2])],
        [oh.make_tensor("m", I64, [], [3]), oh.make_tensor("t", B, [], [True])],
    )
    return oh.make_model(g, opset_imports=[oh.make_opsetid("", 16)])


def test_body_values_of_a_run_the_evaluator_gets_wrong_are_unobservable_with_why():
    model = _loop("")
    r = observe_run(model, FEEDS, plan_for(model))
    assert not r.error, r.error
    np.testing.assert_array_equal(r.outputs["y"], [4, -8])  # onnxruntime: three iterations
    body = [k for k in r.unobservable if k.startswith("Loop#0.body::")]
    assert "Loop#0.body::v_out" in body
    assert all("departs from onnxruntime" in r.unobservable[k] for k in body)
    assert not any(k.startswith("Loop#0.body::") for k in r.observed)


def test_where_the_runtimes_agree_the_body_values_are_the_evaluators():
    model = _loop("t")
    r = observe_run(model, FEEDS, plan_for(model))
    assert not r.error and not r.unobservable, r.unobservable
    assert len(r.observed["Loop#0.body::v_out"]) == 3  # one value per iteration
