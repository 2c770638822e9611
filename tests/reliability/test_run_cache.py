"""IsolatedExecutor.run_model answers a repeated run (same model bytes, equal feeds, same exposed
values) without asking the worker again; a run that killed the worker is asked again."""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases.builders import FLOAT, model, node, vi
from passcheck.passes.isolation import IsolatedExecutor
from tests.reliability.test_run_isolation import _bn9_all_outputs_empty


def _neg():
    return model([node("Neg", ["x"], ["y"])], [vi("x", FLOAT, [2])], [vi("y", FLOAT, [2])], opset=13)


def _counting(ex: IsolatedExecutor) -> list:
    asked, real = [], ex.run
    ex.run = lambda *a: asked.append(1) or real(*a)
    return asked


def test_repeated_run_is_answered_once_and_other_feeds_are_run():
    with IsolatedExecutor(timeout=60) as ex:
        asked = _counting(ex)
        a = ex.run_model(_neg(), {"x": np.array([1, 2], np.float32)})
        a.outputs.clear()  # a caller changing its copy does not change what is kept
        b = ex.run_model(_neg(), {"x": np.array([1, 2], np.float32)})
        assert len(asked) == 1
        np.testing.assert_array_equal(b.outputs["y"], [-1, -2])
        c = ex.run_model(_neg(), {"x": np.array([1, 3], np.float32)})
        d = ex.run_model(_neg(), {"x": np.array([1, 2], np.float64)})
        e = ex.run_model(_neg(), {"x": np.array([1, 2], np.float32)}, expose=["y"])
        assert len(asked) == 4
        np.testing.assert_array_equal(c.outputs["y"], [-1, -3])
        assert d.error and e.error is None


def test_a_run_that_killed_the_worker_is_run_again():
    with IsolatedExecutor(timeout=60) as ex:
        asked = _counting(ex)
        crash = _bn9_all_outputs_empty(None)
        feeds = {"x": np.ones((2, 3, 4), np.float32)}
        first, second = ex.run_model(crash, feeds), ex.run_model(crash, feeds)
        assert "SIGSEGV" in first.error and "SIGSEGV" in second.error
        assert len(asked) == 2


def test_a_run_too_large_to_keep_is_still_returned():
    with IsolatedExecutor(timeout=60) as ex:
        ex._runs.max_bytes = 4
        asked = _counting(ex)
        feeds = {"x": np.array([1, 2], np.float32)}
        first, second = ex.run_model(_neg(), feeds), ex.run_model(_neg(), feeds)
        np.testing.assert_array_equal(first.outputs["y"], [-1, -2])
        np.testing.assert_array_equal(second.outputs["y"], [-1, -2])
        assert len(asked) == 2


def test_prefetch_runs_every_binding_in_one_round_trip_and_the_calls_that_follow_find_them():
    feeds = [{"x": np.array([1, 2], np.float32)}, {"x": np.array([3, 4], np.float32)}]
    with IsolatedExecutor(timeout=60) as ex, IsolatedExecutor(timeout=60) as plain:
        asked = _counting(ex)
        assert ex.prefetch(_neg(), feeds) == 2
        assert len(asked) == 1
        got = [ex.run_model(_neg(), f) for f in feeds]
        assert len(asked) == 1  # both answered from what the one job kept
        want = [plain.run_model(_neg(), f) for f in feeds]  # run one by one, as without prefetch
        for g, w in zip(got, want):
            assert g.error is None and w.error is None
            np.testing.assert_array_equal(g.outputs["y"], w.outputs["y"])
        assert ex.prefetch(_neg(), feeds) == 0 and len(asked) == 1  # nothing left to make


def test_prefetch_runs_three_bindings_in_one_job_and_leaves_a_single_one_to_its_own_call():
    """``prefetch`` batches any number of runs from two up (kills ``len(todo) < 2`` → ``!= 2``, which
    left three or more bindings to one round trip each); one run to make is left to its own call."""
    feeds = [{"x": np.array([i, i + 1], np.float32)} for i in range(3)]
    with IsolatedExecutor(timeout=60) as ex:
        asked = _counting(ex)
        assert ex.prefetch(_neg(), feeds[:1]) == 0 and asked == []
        assert ex.prefetch(_neg(), feeds) == 3 and len(asked) == 1
        got = [ex.run_model(_neg(), f) for f in feeds]
        assert len(asked) == 1 and [g.outputs["y"].tolist() for g in got] == [[-i, -i - 1] for i in range(3)]


def test_a_prefetch_that_kills_the_worker_keeps_nothing_and_each_run_still_says_why():
    with IsolatedExecutor(timeout=60) as ex:
        asked = _counting(ex)
        crash = _bn9_all_outputs_empty(None)
        feeds = [{"x": np.ones((2, 3, 4), np.float32)}, {"x": np.zeros((2, 3, 4), np.float32)}]
        assert ex.prefetch(crash, feeds) == 0
        runs = [ex.run_model(crash, f) for f in feeds]
        assert all("SIGSEGV" in r.error for r in runs)
        assert len(asked) == 3  # the dead batch, then each run on its own


def test_string_feeds_are_kept_by_value_and_numbers_by_their_bytes():
    """Mutant killed: ``value.dtype != object`` → ``==`` in the run cache's feed digest, which took the
    bytes of a string (object) array, a TypeError, and the ``repr`` of a number array, where NaNs of
    different payloads read alike."""
    from passcheck.runtime.isolated import RunCache

    strings = model(
        [node("Identity", ["x"], ["y"])],
        [vi("x", onnx.TensorProto.STRING, [2])],
        [vi("y", onnx.TensorProto.STRING, [2])],
        opset=13,
    )
    with IsolatedExecutor(timeout=60) as ex:
        asked = _counting(ex)
        ab = ex.run_model(strings, {"x": np.array(["a", "b"], dtype=object)})
        ac = ex.run_model(strings, {"x": np.array(["a", "c"], dtype=object)})
        again = ex.run_model(strings, {"x": np.array(["a", "b"], dtype=object)})
    assert ab.error is None and list(ab.outputs["y"]) == ["a", "b"] and list(ac.outputs["y"]) == ["a", "c"]
    assert list(again.outputs["y"]) == ["a", "b"] and len(asked) == 2
    quiet, payload = np.array([np.nan], np.float32), np.array([0x7FC00001], np.uint32).view(np.float32)
    assert RunCache.key(b"", {"x": quiet}, ()) != RunCache.key(b"", {"x": payload}, ())


def test_prefetch_answers_the_question_asked_with_it_from_the_same_job():
    """The checker's question rides in the prefetch job: ``answer(fn(model))`` is called with what the worker
    computed, no second round trip (kills ``also is not None`` → ``is None`` in ``ModelRuns``, which dropped
    the question and left the caller to ask it alone)."""
    import operator

    feeds = [{"x": np.array([1, 2], np.float32)}, {"x": np.array([3, 4], np.float32)}]
    with IsolatedExecutor(timeout=60) as ex:
        asked = _counting(ex)
        answers: list = []
        assert ex.prefetch(_neg(), feeds, also=(operator.attrgetter("ir_version"), answers.append)) == 2
        assert len(asked) == 1 and answers == [_neg().ir_version]


def test_a_prefetch_question_that_raised_is_not_answered_and_its_runs_are_kept():
    """``also``'s answer is called only with what the question returned: one that raised in the worker
    is left to the caller, who asks it alone and sees it raise (kills ``answer is not None and "also" in
    reply`` → ``or``, which read the missing answer: KeyError); the runs of the job are kept all the same."""
    import operator

    # stdlib questions: importable in the worker whatever the test layout and sys.path (with this module's own
    # functions, one loaded CI run kept no run: a job the worker cannot unpickle runs nothing)
    raises = operator.itemgetter(0)  # a ModelProto is no sequence: TypeError in the worker
    feeds = [{"x": np.array([1, 2], np.float32)}, {"x": np.array([3, 4], np.float32)}]
    answers: list = []
    with IsolatedExecutor(timeout=60) as ex:
        asked = _counting(ex)
        assert ex.prefetch(_neg(), feeds, also=(raises, answers.append)) == 2
        assert answers == [] and len(asked) == 1
        assert [ex.run_model(_neg(), f).outputs["y"].tolist() for f in feeds] == [[-1, -2], [-3, -4]]
        assert len(asked) == 1
        other = [{"x": np.array([i, i], np.float32)} for i in (5, 6)]
        assert ex.prefetch(_neg(), other, also=(operator.attrgetter("ir_version"), answers.append)) == 2
        assert answers == [_neg().ir_version]  # a question that returned is answered
