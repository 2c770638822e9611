"""IsolatedExecutor.run_model answers a repeated run (same model bytes, equal feeds, same exposed
values) without asking the worker again; a run that killed the worker is asked again."""

from __future__ import annotations

import numpy as np

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
