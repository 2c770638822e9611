"""The isolation worker keeps the feeds it was sent last by their digest (issue 28): one binding's
feeds serve every form and pass output of a subject, so a run of another model on the same feeds
sends the job without them; a worker that lost them answers ``missing_feeds`` and is sent them;
a new worker process is sent them at once. Every answer is the run of the right feeds."""

from __future__ import annotations

import pickle

import numpy as np

from passcheck.passes.isolation import IsolatedExecutor
from passcheck.runtime.isolated import _held_feeds, feeds_digest
from tests.passes.test_isolated_runs import _model


def _jobs(ex: IsolatedExecutor) -> list:
    """Each job the worker is sent, unpickled: whether it carried its feeds (one flag per feed dict)."""
    seen, real = [], ex.run

    def run(blob, data, workdir):
        job = pickle.loads(blob)
        feeds = job.feeds if isinstance(job.feeds, list) else [job.feeds]
        seen.append([f is not None for f in feeds])
        return real(blob, data, workdir)

    ex.run = run
    return seen


def _models():
    relu, neg = _model(), _model()
    neg.graph.node[0].op_type = "Neg"
    return relu, neg


def test_feeds_cross_the_pipe_once_per_worker_and_each_run_uses_its_own():
    relu, neg = _models()
    a = {"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2}
    b = {"x": np.arange(9, dtype=np.float32).reshape(3, 3) - 4}
    with IsolatedExecutor() as ex:
        jobs = _jobs(ex)
        first = ex.run_model(relu, a)
        other = ex.run_model(neg, a)  # the same feeds: not sent again
        third = ex.run_model(neg, b)  # other feeds: sent
        fourth = ex.run_model(relu, b)
        assert jobs == [[True], [False], [True], [False]], jobs
        np.testing.assert_array_equal(first.outputs["y"], np.maximum(a["x"], 0))
        np.testing.assert_array_equal(other.outputs["y"], -a["x"])
        np.testing.assert_array_equal(third.outputs["y"], -b["x"])
        np.testing.assert_array_equal(fourth.outputs["y"], np.maximum(b["x"], 0))
        # the run observes the caller's own arrays, as one in this process does
        assert other.observed["x"] is a["x"] and fourth.observed["x"] is b["x"]


def test_a_new_worker_is_sent_the_feeds_and_one_that_lost_them_asks_for_them():
    relu, neg = _models()
    a = {"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2}
    lost = {"x": np.full((2, 3), -5, np.float32)}
    with IsolatedExecutor() as ex:
        jobs = _jobs(ex)
        ex.run_model(relu, a)
        ex._stop()  # a new worker process keeps no feeds: sent with the first job, no round trip lost
        del jobs[:]
        again = ex.run_model(neg, a)
        assert jobs == [[True]], jobs
        np.testing.assert_array_equal(again.outputs["y"], -a["x"])
        _held_feeds(ex).keep(feeds_digest(lost), None, 24)  # the parent wrongly believes the worker keeps them
        del jobs[:]
        got = ex.run_model(neg, lost)
        assert jobs == [[False], [True]], jobs  # "missing_feeds", then sent
        np.testing.assert_array_equal(got.outputs["y"], -lost["x"])


def test_prefetch_sends_each_feed_dict_once_per_worker():
    relu, neg = _models()
    feeds = [{"x": np.array([[1, -2, 3]], np.float32)}, {"x": np.array([[-4, 5, -6], [7, -8, 9]], np.float32)}]
    with IsolatedExecutor() as ex:
        jobs = _jobs(ex)
        assert ex.prefetch(relu, feeds) == 2
        assert ex.prefetch(neg, feeds) == 2  # another model on the same bindings: no feeds sent
        assert jobs == [[True, True], [False, False]], jobs
        got = [ex.run_model(neg, f) for f in feeds]
        assert len(jobs) == 2  # answered from the prefetched runs
        for g, f in zip(got, feeds):
            np.testing.assert_array_equal(g.outputs["y"], -f["x"])
        moved = [{"x": f["x"] + 1} for f in feeds]
        _held_feeds(ex).keep(feeds_digest(moved[1]), None, 24)  # the parent wrongly believes the worker keeps it
        del jobs[:]
        assert ex.prefetch(relu, moved) == 2
        assert jobs == [[True, False], [True, True]], jobs  # the worker lacked the second: all sent again
        for f in moved:
            np.testing.assert_array_equal(ex.run_model(relu, f).outputs["y"], np.maximum(f["x"], 0))
