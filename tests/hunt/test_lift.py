"""Lifted bases (M293): a model at an older opset imported at the newest one onnx and onnxruntime share, through
onnx's version converter, and kept only when the real tools show it computes the same (onnxruntime and the reference
evaluator) and it opens an opset-gated neighbour or rewrite (IR.md opset versioning; Operators.md changelogs)."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from passcheck.hunt import lift
from passcheck.oracles.validity import Checker
from passcheck.runtime import run_ort

FEEDS = [{"x": np.linspace(-2, 2, 12, dtype=np.float32).reshape(3, 4)}]


def _model(opset: int = 12) -> onnx.ModelProto:
    """``y = ReduceSum(Unsqueeze(Relu(x), axes=[0]), axes=[2], keepdims=0)``, ``x: float[3, 4]``, attribute spellings
    (Unsqueeze-11, ReduceSum-11: their axes became inputs at 13)."""
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Unsqueeze", ["r"], ["u"], axes=[0]),
        helper.make_node("ReduceSum", ["u"], ["y"], axes=[2], keepdims=0),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def _gate(model, to):
    return lift.lift(model, to, FEEDS, run_ort, Checker())


def test_lift_computes_the_same_and_opens_gated_kinds():
    to = lift.target()
    assert to >= 21  # onnx 1.23 / onnxruntime 1.32 share opsets well past QuantizeLinear-21
    m = _model()
    done = _gate(m, to)
    assert lift.default_opset(done) == to
    onnx.checker.check_model(done, full_check=True)
    ops = {n.op_type: len(n.input) for n in done.graph.node}
    assert ops["Unsqueeze"] == 2 and ops["ReduceSum"] == 2  # the attribute spellings rewritten to their inputs
    got = ort.InferenceSession(done.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, FEEDS[0])
    want = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, FEEDS[0])
    np.testing.assert_allclose(got[0], want[0])
    opens = lift.opened(m, done)
    assert "vary:qdq-16bit" in opens  # QuantizeLinear-21's 16-bit types: no site at opset 12
    before = lift.reach(m)
    assert not set(opens) & set(before)  # only what the old opset had no site for


def test_lift_refused_when_it_computes_otherwise_or_cannot(monkeypatch):
    to = lift.target()
    with pytest.raises(lift.NotLifted, match="below"):
        _gate(_model(to), to)  # already there

    real = lift.convert_job

    def wrong(model, target):  # a converter that changes the computation: Relu becomes Neg
        out = real(model, target)
        out.graph.node[0].op_type = "Neg"
        return out

    monkeypatch.setattr(lift, "convert_job", wrong)
    with pytest.raises(lift.NotLifted, match="onnxruntime"):
        _gate(_model(), to)

    def raising(model, target):
        raise RuntimeError("No Adapter For Foo")

    monkeypatch.setattr(lift, "convert_job", raising)
    with pytest.raises(lift.NotLifted, match="converter: RuntimeError: No Adapter"):
        _gate(_model(), to)


def test_evaluator_departure_named():
    m = _model()
    other = onnx.ModelProto()
    other.CopyFrom(m)
    other.graph.node[0].op_type = "Neg"
    assert lift.evaluator_departs(m, m, FEEDS) is None
    assert "output 'y'" in lift.evaluator_departs(m, other, FEEDS)


def test_lifted_bases_offered_cached_and_named(tmp_path, monkeypatch):
    from passcheck.cases import registry
    from passcheck.hunt.space import bases

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path))
    found = bases(["axes/softmax-axis"], generated=False)
    census = lift.Census()
    got = lift.lifted_bases(found, census=census)
    to = lift.target()
    at = lift.target_for(registry().get("axes/softmax-axis").build("common"))
    assert at == to  # Softmax, Transpose...: onnxruntime serves the newest versions
    assert [b.id for b in got] == [f"axes/softmax-axis+opset{at}:common"]
    case = got[0].case
    assert list(case.forms) == ["common", lift.BEFORE] and case.opset == to
    assert lift.default_opset(got[0].model()) == to
    assert lift.default_opset(case.build(lift.BEFORE)) == registry().get("axes/softmax-axis").opset
    assert census.tried == census.lifted == census.offered == 1
    assert len(list((tmp_path / "lifted").glob("*.onnx"))) == 1

    def fail(*a, **k):
        raise AssertionError("lifted again: the cache was not read")

    monkeypatch.setattr(lift, "lift", fail)
    again = lift.lifted_bases(found)
    assert [b.id for b in again] == [b.id for b in got]
    assert again[0].model().SerializeToString() == got[0].model().SerializeToString()
    assert lift.lifted_bases(again) == []  # a lifted case is not lifted again


def test_target_is_one_onnxruntime_has_kernels_for():
    """QuantizeLinear / DequantizeLinear: the newest opset whose versions onnxruntime knows and has a CPU kernel for
    (its registry), not onnx's newest; the model lifted there runs and computes the same. At opset 13 the reference
    evaluator has no DequantizeLinear-13 (it ships 19 and later): the lifted model's evaluator run is compared with
    onnxruntime's run of the original."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 4])
    inits = [
        helper.make_tensor("s", TensorProto.FLOAT, [], [0.05]),
        helper.make_tensor("z", TensorProto.UINT8, [], [8]),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"]),
    ]
    m = helper.make_model(helper.make_graph(nodes, "g", [x], [y], inits), opset_imports=[helper.make_opsetid("", 13)])
    at = lift.target_for(m)
    assert 21 <= at <= lift.target()
    done = _gate(m, at)  # raises NotLifted when onnxruntime cannot run the lifted model
    assert lift.default_opset(done) == at
