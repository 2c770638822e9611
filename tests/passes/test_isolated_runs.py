"""An isolated model run sends back what the oracles read: data for graph inputs and outputs and
for shape-derived values (folding), shape and dtype only for the other observed intermediates
(annotations), so a large model's activations do not cross the pipe."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from passcheck.engine import observed_run
from passcheck.passes.isolation import IsolatedExecutor
from passcheck.runtime.observe import TensorMeta


def _model() -> onnx.ModelProto:
    nodes = [
        helper.make_node("Relu", ["x"], ["r"]),
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Reshape", ["r", "s"], ["y"]),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        value_info=[
            helper.make_tensor_value_info("r", TensorProto.FLOAT, ["N", 3]),
            helper.make_tensor_value_info("s", TensorProto.INT64, [2]),
        ],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_isolated_run_keeps_data_only_where_an_oracle_reads_it():
    feeds = {"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2}
    with IsolatedExecutor() as ex:
        r = observed_run(_model(), feeds, ex.run_model)
    assert not r.error, r.error
    assert r.observed["r"] == TensorMeta((2, 3), np.dtype(np.float32))  # annotated intermediate: shape and dtype
    np.testing.assert_array_equal(r.observed["s"], [2, 3])  # shape-derived: the folding oracle compares it
    np.testing.assert_array_equal(r.outputs["y"], np.maximum(feeds["x"], 0))
    np.testing.assert_array_equal(r.observed["x"], feeds["x"])
    local = observed_run(_model(), feeds)  # in process: the same keys, the data too
    assert set(local.observed) == set(r.observed)


def _sent(ex: IsolatedExecutor) -> list[int]:
    """Record the length of the model bytes each job sends to ``ex``'s worker."""
    sizes, real = [], ex.run
    ex.run = lambda blob, data, workdir: sizes.append(len(data)) or real(blob, data, workdir)
    return sizes


def test_a_model_run_again_is_not_sent_again_and_a_new_worker_is_sent_it():
    """The worker keeps the models it ran last by their digest: a second run of the same bytes
    (another binding) sends only the job; a worker that lost them (replaced after being killed
    between runs) answers "missing" and is sent them; every answer is the right model's (issue 28)."""
    relu, neg = _model(), _model()
    neg.graph.node[0].op_type = "Neg"
    a = {"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2}
    b = {"x": np.arange(9, dtype=np.float32).reshape(3, 3) - 4}
    with IsolatedExecutor() as ex:
        sent = _sent(ex)
        first = ex.run_model(relu, a)
        second = ex.run_model(relu, b)  # sent without the model bytes
        assert sent[0] == len(relu.SerializeToString()) and sent[1:] == [0], sent
        np.testing.assert_array_equal(second.outputs["y"], np.maximum(b["x"], 0))
        other = ex.run_model(neg, a)
        np.testing.assert_array_equal(other.outputs["y"], -a["x"])
        again = ex.run_model(relu, a | {"x": a["x"] + 1})  # kept beside the other model: not sent again
        np.testing.assert_array_equal(again.outputs["y"], np.maximum(a["x"] + 1, 0))
        assert sent[-1] == 0, sent
        ex._stop()  # a new worker holds no model: it is sent the bytes
        del sent[:]
        after = ex.run_model(neg, b)
        np.testing.assert_array_equal(after.outputs["y"], -b["x"])
        assert sent == [len(neg.SerializeToString())], sent
        ex._held.keep(ex.digest(relu), None, 10)  # the parent wrongly believes the worker keeps it
        del sent[:]
        wrong = ex.run_model(relu, b | {"x": b["x"] - 1})
        np.testing.assert_array_equal(wrong.outputs["y"], np.maximum(b["x"] - 1, 0))
        assert sent == [0, len(relu.SerializeToString())], sent  # "missing", then sent
    np.testing.assert_array_equal(first.outputs["y"], np.maximum(a["x"], 0))


def test_a_pass_output_is_run_and_checked_without_being_sent_back():
    """The worker keeps the model a pass made; inside ``fixed_models`` (the engine's block) the parent
    knows it by the digest the worker sent, so running it and asking the checker about it send no
    model bytes; outside the block a model is serialized again each time it is asked about."""
    from passcheck.oracles.validity import Checker
    from passcheck.passes import get_pass

    feeds = {"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2}
    with IsolatedExecutor() as ex:
        with ex.fixed_models():
            outcome = ex(get_pass("onnx:infer-shapes"), _model(), ex.folder)
            assert outcome.ok, outcome.error
            sent = _sent(ex)
            r = ex.run_model(outcome.model, feeds)
            verdict = Checker(ex)(outcome.model)
            assert sent == [0, 0], sent
            assert ex._serialized(outcome.model)[1] is None  # known by its digest: not serialized
        np.testing.assert_array_equal(r.outputs["y"], np.maximum(feeds["x"], 0))
        assert verdict is None
        assert ex._serialized(outcome.model)[1] is not None  # outside the block: serialized again


def test_kept_models_stay_within_their_budget_the_newest_always_kept():
    """What a worker keeps (and the parent's list of it) drops the least recently used model beyond
    the budget, never the newest; the budget is at most an eighth of the worker's memory cap."""
    from passcheck.execution.process import KEPT_BYTES, Kept, kept_budget

    kept = Kept(250)
    kept.keep(b"a", "A", 100)
    kept.keep(b"b", "B", 100)
    assert kept.find(b"a") == "A"  # now the most recently used
    kept.keep(b"c", "C", 100)
    assert list(kept) == [b"a", b"c"] and kept.size == 200 and kept.find(b"b") is None
    kept.keep(b"d", "D", 1000)  # over the budget alone: kept, everything older dropped
    assert list(kept) == [b"d"] and kept.size == 1000
    kept.drop(b"d")
    assert not kept and kept.size == 0
    assert kept_budget(None) == KEPT_BYTES and kept_budget(512) == 64 << 20


def test_the_feeds_are_not_sent_back_the_run_observes_the_callers_own():
    """The worker's reply leaves out the feeds it was given (the parent has them, issue 28): a run,
    and each prefetched binding, observes the caller's arrays themselves, after its outputs, as a
    run in this process does; a failed run observes nothing."""
    from passcheck.runtime.isolated import _strip_feeds
    from passcheck.runtime.session import RunResult

    feeds = [{"x": np.full((n, 3), -1.0, np.float32)} for n in (2, 3, 4)]
    with IsolatedExecutor() as ex:
        r = ex.run_model(_model(), feeds[0], shapes=["r"])
        assert ex.prefetch(_model(), feeds[1:], shapes=["r"]) == 2
        later = [ex.run_model(_model(), f, shapes=["r"]) for f in feeds[1:]]
        bad = _model()
        bad.graph.node[0].op_type = "NoSuchOp"
        failed = ex.run_model(bad, feeds[0])
    for run, f in zip([r, *later], feeds):
        assert not run.error and run.observed["x"] is f["x"]
        assert list(run.observed)[-1] == "x" and run.observed["r"] == TensorMeta(f["x"].shape, np.dtype(np.float32))
        np.testing.assert_array_equal(run.outputs["y"], np.zeros_like(f["x"]))
    assert failed.error and failed.observed == {}
    x = feeds[0]["x"]
    kept = RunResult({}, {"y": x, "x": TensorMeta((2, 3), np.dtype(np.float32))})  # not the value it was given
    assert not _strip_feeds(kept, {"x": x}) and list(kept.observed) == ["y", "x"]


def test_the_output_of_a_pass_run_in_a_forked_child_is_sent_with_its_first_run():
    """A pass the worker cannot unpickle runs in a one-shot forked child, which keeps nothing: its
    output's first run sends the model bytes at once, not first by digest to a worker that answers
    "missing" (mutant killed: ``digest is not None and held`` → ``or`` in ``_outcome``)."""
    from passcheck.passes import FunctionAdapter

    feeds = {"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2}
    with IsolatedExecutor() as ex:
        with ex.fixed_models():
            outcome = ex(FunctionAdapter("t:closure", lambda m: m), _model(), ex.folder)  # a lambda: unpicklable
            assert outcome.ok, outcome.error
            sent = _sent(ex)
            r = ex.run_model(outcome.model, feeds)
            assert sent == [len(outcome.model.SerializeToString())], sent
        np.testing.assert_array_equal(r.outputs["y"], np.maximum(feeds["x"], 0))
