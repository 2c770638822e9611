"""A value inside an If branch is observed by onnx's reference evaluator only; when the evaluator computes its node
otherwise than onnxruntime does on the same inputs, its value is no evidence against the annotation (M252).

Operators.md Gather: the output shape is ``data.shape[:axis] + indices.shape + data.shape[axis+1:]``, a zero-size
``indices`` included. onnx 1.16.2–1.22.0's evaluator returned ``float[0]`` for any empty ``indices`` (fixed by
onnx/onnx#8306 in 1.23); the branch's graph output (a ReduceSum, 0 either way) still agrees with onnxruntime's, so
the evaluator's run was trusted and onnx shape inference's right ``[0, 3]`` was reported violated, the pass blamed.
The tests restore that evaluator (its released ``_run``) on the installed onnx, with real onnxruntime runs."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper
from onnx.reference.ops import op_gather

from passcheck.oracles import annotations
from passcheck.oracles._context import FormRun
from passcheck.passes import PassOutcome
from passcheck.runtime import reference
from passcheck.runtime.node_alone import evaluator_departs
from passcheck.runtime.observe import observe
from passcheck.runtime.plan import Repeated
from passcheck.runtime.session import RunResult

FEEDS = {"x": np.ones((2, 3), np.float32), "i": np.zeros((0,), np.int64), "c": np.array(True)}


def _model(rank2: bool = True) -> onnx.ModelProto:
    """``y = If(c)`` whose branches compute ``ReduceSum(Gather(x, i), keepdims=0)``, ``x: float[2, 3]``,
    ``i: int64[0]``; inferred by onnx (the branch values annotated, ``g_then: float[0, 3]``). ``rank2`` False
    takes the Gather's axis 1 (``[2, 0]``) so the model's bytes differ from the first's."""
    axis = 0 if rank2 else 1

    def branch(name: str) -> onnx.GraphProto:
        return helper.make_graph(
            [
                helper.make_node("Gather", ["x", "i"], [f"g_{name}"], axis=axis),
                helper.make_node("ReduceSum", [f"g_{name}"], [f"s_{name}"], keepdims=0),
            ],
            name,
            [],
            [helper.make_tensor_value_info(f"s_{name}", TensorProto.FLOAT, None)],
        )

    g = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=branch("then"), else_branch=branch("else"))],
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
            helper.make_tensor_value_info("i", TensorProto.INT64, [0]),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [])],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    return onnx.shape_inference.infer_shapes(m)


@pytest.fixture
def released_gather(monkeypatch):
    """The evaluator's Gather as onnx 1.16.2–1.22.0 shipped it: any empty ``indices`` gives ``float[0]``; the
    reference runs kept from other tests are set aside."""
    right = op_gather.Gather._run

    def _run(self, x, indices, axis=None):
        return (np.empty((0,), dtype=x.dtype),) if indices.size == 0 else right(self, x, indices, axis=axis)

    monkeypatch.setattr(op_gather.Gather, "_run", _run)
    monkeypatch.setattr(reference, "_RUNS", type(reference._RUNS)())


def _judged(model: onnx.ModelProto) -> FormRun:
    observed, blind = observe(model, FEEDS)
    run = RunResult({"y": observed.get("y")}, observed, unobservable=blind)
    outcome = PassOutcome("onnx:infer-shapes", "changed", model)
    return FormRun("c", "f", "onnx:infer-shapes", model, outcome, [FEEDS], [run], [run])


def test_an_evaluator_that_onnxruntime_contradicts_on_the_node_blames_no_pass(released_gather):
    """The branch value is unchecked with why, and no annotation-violated finding is made; before M252 the
    finding read "If#0.then_branch::g_then#0: annotated rank 2 [0, 3], run produced shape [0]"."""
    run = _judged(_model())
    assert annotations.check(run) == []
    why = annotations.unchecked(run)["annotation 'If#0.then_branch::g_then'"]
    assert "computes float32[0] where onnxruntime runs the Gather node alone" in why
    assert "float32[0, 3]" in why and "(If#0.then_branch::g_then#0)" in why
    cov = annotations.coverage(run)
    assert cov["unobservable"] == 1 and "If#0.then_branch::g_then" in cov["reasons"]


def test_a_wrong_annotation_onnxruntime_agrees_is_wrong_still_blames_the_pass():
    """The evaluator right (the installed one): an annotation ``[5, 3]`` on the branch value is violated, and
    onnxruntime's run of the node alone agrees with the evaluator, so the finding stays the pass's."""
    model = _model()
    then = next(a.g for a in model.graph.node[0].attribute if a.name == "then_branch")
    vi = next(v for v in then.value_info if v.name == "g_then")
    vi.type.tensor_type.shape.dim[0].dim_value = 5
    found = annotations.check(_judged(model))
    assert [f.kind for f in found] == ["annotation-violated"]
    assert "If#0.then_branch::g_then#0" in found[0].message and "blame" not in found[0].details


def test_evaluator_departs_reads_inputs_from_the_scope_and_the_iteration(released_gather):
    """The node's inputs come from the enclosing (main) graph when the branch lacks them; the value of call ``#i``
    is the one compared; a main-graph key or an unknown scope has no second opinion."""
    model = _model(rank2=False)
    observed = dict(reference.run_reference(model, FEEDS).observed)
    assert observed["If#0.then_branch::g_then"][0].shape == (0,)
    said = evaluator_departs(model, observed, "If#0.then_branch::g_then#0")
    assert said is not None and "float32[2, 0]" in said
    observed["If#0.then_branch::g_then"] = Repeated([np.empty((2, 0), np.float32)])
    assert evaluator_departs(model, observed, "If#0.then_branch::g_then#0") is None
    assert evaluator_departs(model, observed, "y") is None
    assert evaluator_departs(model, observed, "Loop#3.body::g_then#0") is None


def test_an_enclosing_scope_s_value_is_read_only_when_it_took_one():
    """A body nested in a Loop body reads the Loop body's value: one value (the body ran once) is the one read; two
    (which one this call read is not recorded) give none, so no second opinion is made on a guess."""
    from passcheck.runtime.node_alone import _value

    a, b = np.zeros((1,), np.float32), np.zeros((2,), np.float32)
    inner = "Loop#0.body/If#1.then_branch"
    assert _value({"Loop#0.body::t": Repeated([a])}, inner, "t", 3) is a
    assert _value({"Loop#0.body::t": Repeated([a, b])}, inner, "t", 1) is None
    assert _value({f"{inner}::t": Repeated([a, b])}, inner, "t", 1) is b  # its own scope: call 1's value
    assert _value({"t": a}, inner, "t", 1) is a  # the main graph's
