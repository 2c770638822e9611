"""What depends only on a model is made once per model's bytes and reused (issue 28): the oracles'
observation plan (by the digest the isolation worker knows) and, in the worker, the session copy's
bytes; a model changed in place is a new model and is read again."""

from __future__ import annotations

import hashlib

import numpy as np
import onnx
from onnx import TensorProto, helper

from passcheck.engine import _plan, observed_run
from passcheck.passes.isolation import IsolatedExecutor
from passcheck.runtime.observe import TensorMeta
from passcheck.runtime.profile import copy_bytes


def _model() -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_a_plan_is_kept_by_the_models_bytes_and_a_changed_model_is_planned_again():
    feeds = {"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2}
    model = _model()
    with IsolatedExecutor() as ex:
        first = _plan(model, ex.run_model)
        assert _plan(_model(), ex.run_model) is first  # another object, the same bytes: not read again
        assert "r" not in first.main_shapes
        before = observed_run(model, feeds, ex.run_model)
        assert "r" not in before.observed
        model.graph.value_info.append(helper.make_tensor_value_info("r", TensorProto.FLOAT, ["N", 3]))
        changed = _plan(model, ex.run_model)  # the same object, changed: planned again
        assert changed is not first and "r" in changed.main_shapes
        after = observed_run(model, feeds, ex.run_model)
    assert after.observed["r"] == TensorMeta((2, 3), np.dtype(np.float32))


def test_the_session_copy_is_kept_by_digest_and_observed_names():
    model = _model()
    key = hashlib.sha256(model.SerializeToString()).digest()
    tagged = copy_bytes(model, [], True, True, key)
    assert copy_bytes(model, [], True, True, key) is tagged  # a second binding: not copied again
    exposing = copy_bytes(model, ["r"], True, True, key)
    assert exposing is not tagged and [o.name for o in onnx.ModelProto.FromString(exposing).graph.output] == ["y", "r"]
    assert [n.name for n in onnx.ModelProto.FromString(tagged).graph.node] == ["passcheck.node.0", "passcheck.node.1"]
    assert copy_bytes(model, [], True, True, None) == tagged  # no digest: made again, the same bytes
