"""M287: two spellings of one computation that onnxruntime (unoptimized) computes differently get the reference
evaluator's opinion on both before the rewrite is blamed; onnxruntime outvoted on one spelling is that spelling's
``input`` finding in the hunt. Real onnxruntime and reference-evaluator runs; an onnxruntime fault on one spelling is
played by a runner that shifts that spelling's outputs (no such fault in the installed onnxruntime is known where the
evaluator runs both spellings: row 963's CastLike is refused by the evaluator, row 292)."""

from __future__ import annotations

import dataclasses

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.errors import PasscheckInternalError
from passcheck.hunt.probe import COMMON, Setting, gate
from passcheck.mutations.equivalence import SpellingFault, Unverified, verify_equivalent
from passcheck.mutations.spelling_referee import MUTANT, ORIGINAL, UNSETTLED, odd_run
from passcheck.runtime import run_ort

FEEDS = [{"x": np.array([3.0, 5.0, 100.0], np.float32)}]


def _model(node: onnx.NodeProto, inits=(), opset: int = 21, ir: int = 10) -> onnx.ModelProto:
    nodes = [node, helper.make_node("Cast", ["c"], ["y"], to=TensorProto.FLOAT)]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
        list(inits),
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=ir)


def _castlike(**attrs) -> onnx.ModelProto:
    t = helper.make_tensor("t", TensorProto.FLOAT16, [1], [1.0])
    return _model(helper.make_node("CastLike", ["x", "t"], ["c"], **attrs), [t], **_opset(attrs))


def _cast(**attrs) -> onnx.ModelProto:
    return _model(helper.make_node("Cast", ["x"], ["c"], to=TensorProto.FLOAT16, **attrs), **_opset(attrs))


def _opset(attrs) -> dict:
    return {"opset": 24, "ir": 11} if "round_mode" in attrs else {}


@dataclasses.dataclass
class _Faulty:
    """An executor whose onnxruntime is off by one on models holding ``op`` (a runtime fault on one spelling)."""

    op: str

    def run_model(self, model, feeds, **kw):
        r = run_ort(model, feeds, **kw)
        if any(n.op_type == self.op for n in model.graph.node) and not r.error:
            r.outputs = {k: v + 1 for k, v in r.outputs.items()}
        return r


def _differ(x, y):
    return None if all(np.array_equal(x[k], y[k]) for k in x) else "differs"


def test_the_ruling_counts_four_runs():
    one, two = {"y": np.array([1.0])}, {"y": np.array([2.0])}
    assert odd_run(two, one, one, one, _differ).odd == ORIGINAL
    assert odd_run(one, two, one, one, _differ).odd == MUTANT
    assert odd_run(one, two, one, two, _differ) is None  # two computations, both runtimes agree: the rewrite
    assert odd_run(one, two, "TypeError: no", one, _differ).odd == UNSETTLED
    assert odd_run(one, two, {"y": np.array([3.0])}, {"y": np.array([3.0])}, _differ).odd == UNSETTLED


def test_onnxruntime_outvoted_on_one_spelling_is_named():
    with pytest.raises(SpellingFault) as got:
        verify_equivalent(_castlike(), _cast(), FEEDS, "castlike-as-cast", runner=_Faulty("CastLike").run_model)
    assert got.value.odd == ORIGINAL and got.value.output == "y"
    assert "reference evaluator computes both spellings alike" in str(got.value)


def test_the_mutant_outvoted():
    runner = _Faulty("Cast").run_model
    original = _model(helper.make_node("Identity", ["x"], ["c"]))  # Cast(Identity(x)) vs Cast(Cast(x) to float)
    mutant = _model(helper.make_node("Cast", ["x"], ["c"], to=TensorProto.FLOAT))
    original.graph.node[1].op_type = "Identity"
    original.graph.node[1].ClearField("attribute")
    with pytest.raises(SpellingFault) as got:
        verify_equivalent(original, mutant, FEEDS, "r", runner=runner)
    assert got.value.odd == MUTANT


def test_a_wrong_rewrite_is_still_the_rewrites():
    wrong = _model(helper.make_node("Neg", ["x"], ["c"]))
    with pytest.raises(PasscheckInternalError, match="not equivalent"):
        verify_equivalent(_castlike(), wrong, FEEDS, "r", runner=run_ort)


def test_row_963_without_a_third_opinion_is_no_rewrite_bug():
    """Real runs: onnxruntime expands CastLike-24 through a body without round_mode (row 963), the evaluator refuses
    the attribute on CastLike (row 292): no majority, so the rewrite is not blamed."""
    like = _castlike(round_mode="down")
    like.graph.initializer[0].CopyFrom(helper.make_tensor("t", TensorProto.FLOAT8E8M0, [1], [1.0]))
    cast = _cast(round_mode="down")
    next(a for a in cast.graph.node[0].attribute if a.name == "to").i = TensorProto.FLOAT8E8M0
    with pytest.raises(Unverified, match="reference evaluator fails on the original") as got:
        verify_equivalent(like, cast, FEEDS, "castlike-as-cast", runner=run_ort)
    assert not isinstance(got.value, SpellingFault)


def test_the_hunts_gate_reports_the_odd_spelling_as_a_finding():
    out = gate(Setting("s", [{}]), _castlike(), "castlike-as-cast", _cast(), _Faulty("CastLike"), None)
    assert out is not None and out.status == "done"
    (f,) = out.findings
    assert (f.form, f.pass_id, f.oracle, f.kind) == (COMMON, "input", "numeric", "wrong-result")
    assert f.details["spelling"]["other"] == "castlike-as-cast"


def test_an_environment_hunt_records_the_gates_finding_as_a_signature(tmp_path):
    """The hunt with ``--env`` gates each pair here (:func:`passcheck.hunt.windows.run_item`): the gate's finding is a
    signature under the environment ``gate``, and no environment is asked to judge a pair with an odd baseline."""
    from types import SimpleNamespace

    from passcheck.hunt import windows
    from passcheck.hunt.space import Item
    from passcheck.hunt.store import Store

    store = Store(tmp_path, {})
    base = SimpleNamespace(case=SimpleNamespace(id="s", bindings=[{}], feeds=None, rtol=None, atol=None))
    item = Item("s:common", "castlike-as-cast", "onnxscript:optimize")

    def judge(*_):
        raise AssertionError("judged in an environment")

    rec = windows.run_item(store, base, item, _castlike(), _cast(), ["n0"], judge, _Faulty("CastLike"))
    assert rec["status"] == "done" and rec["envs"] == {
        windows.GATE: {"status": "judged", "signatures": rec["signatures"]}
    }
    (key,) = rec["signatures"]
    assert store.signatures[key]["hits"] == 1 and "numeric" in key and "wrong-result" in key
