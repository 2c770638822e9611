"""run_ort reuses the session of the model it ran last (one session per model, not per feed set)."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

from passcheck.runtime import run_ort


def _model(op: str) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n"])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["n"])
    graph = helper.make_graph([helper.make_node(op, ["x"], ["y"])], "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def test_second_feed_set_reuses_the_session_and_gets_its_own_result(monkeypatch):
    made = []
    real = ort.InferenceSession

    def counting(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(ort, "InferenceSession", counting)
    neg = _model("Neg")
    a = run_ort(neg, {"x": np.array([1, 2], np.float32)})
    b = run_ort(neg, {"x": np.array([3, 4, 5], np.float32)})
    assert a.error is None and b.error is None
    np.testing.assert_array_equal(a.outputs["y"], [-1, -2])
    np.testing.assert_array_equal(b.outputs["y"], [-3, -4, -5])
    assert len(made) == 1
    # another model (or the same model observing other values) gets its own session
    c = run_ort(_model("Abs"), {"x": np.array([-3], np.float32)})
    np.testing.assert_array_equal(c.outputs["y"], [3])
    assert len(made) == 2


def test_a_model_that_fails_to_load_is_reported_each_time():
    bad = _model("Neg")
    bad.graph.node[0].op_type = "NoSuchOp"
    for _ in range(2):
        r = run_ort(bad, {"x": np.array([1], np.float32)})
        assert r.error and "NoSuchOp" in r.error


def _digest(model: onnx.ModelProto) -> bytes:
    import hashlib

    return hashlib.sha256(model.SerializeToString()).digest()


def test_a_session_found_by_model_key_is_per_model_and_per_exposed_names(monkeypatch):
    """With ``model_key`` (the isolation worker's path) the kept session is found by the model's
    digest and the exposed names: a second binding reuses it; another model, or the same model
    observing other values, gets its own (issue 28: no stale session answers for another model)."""
    made = []
    real = ort.InferenceSession

    def counting(*args, **kwargs):
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(ort, "InferenceSession", counting)
    neg, absm = _model("Neg"), _model("Abs")
    a = run_ort(neg, {"x": np.array([1, 2], np.float32)}, model_key=_digest(neg))
    b = run_ort(neg, {"x": np.array([3, 4, 5], np.float32)}, model_key=_digest(neg))
    np.testing.assert_array_equal(a.outputs["y"], [-1, -2])
    np.testing.assert_array_equal(b.outputs["y"], [-3, -4, -5])
    assert len(made) == 1
    c = run_ort(absm, {"x": np.array([-3], np.float32)}, model_key=_digest(absm))
    np.testing.assert_array_equal(c.outputs["y"], [3])
    assert len(made) == 2
    d = run_ort(absm, {"x": np.array([-3], np.float32)}, expose=["x"], model_key=_digest(absm))
    assert len(made) == 3 and d.error is None
