"""Which feeds an isolation worker leaves out of a run it sends back (``_strip_feeds``: only the very values
it was given, at the end of what the run observed, in their order): behaviours survivors of
``bench/mutation_score.py`` showed unguarded, on runs onnxruntime made (``run_observing``)."""

from __future__ import annotations

import numpy as np
from onnx import parser

from passcheck.runtime.isolated import _strip_feeds
from passcheck.runtime.observe import run_observing
from passcheck.runtime.session import RunResult
from tests.oracles.test_contract import RELU


def _observed(**feeds) -> RunResult:
    """onnxruntime's run of Relu on ``x``, observing ``t``: it ends with the feeds it was given."""
    r = run_observing(parser.parse_model(RELU), feeds, expose=["t"])
    assert r.error is None and list(r.observed)[-len(feeds) :] == list(feeds), r
    return r


def test_the_feeds_a_run_ends_with_are_dropped_and_nothing_else():
    """Mutants killed: ``tail != list(feeds)`` → ``==`` (nothing was dropped) and the deleting loop made empty
    (the feeds were said dropped and still sent)."""
    feeds = {"x": np.array([-1.0, 2.0], np.float32)}
    run = _observed(**feeds)
    assert _strip_feeds(run, feeds) is True
    assert list(run.observed) == ["y", "t"]  # the output and the exposed value stay


def test_a_run_observing_only_its_feeds_drops_them_all():
    """Mutant killed: ``len(observed) < n`` → ``<=``: a run whose observations are exactly its feeds kept them."""
    feeds = {"x": np.array([1.0], np.float32)}
    run = RunResult({}, dict(feeds))
    assert _strip_feeds(run, feeds) is True and run.observed == {}


def test_no_feeds_or_fewer_observations_than_feeds_drop_nothing():
    """Mutants killed: ``not n or len(observed) < n`` → ``and`` (no feeds read as every observation being one),
    and its ``return False`` → ``True`` (feeds said dropped that were never observed)."""
    assert _strip_feeds(RunResult({}, {}), {}) is False
    feeds = {"a": np.array([1.0], np.float32), "b": np.array([2.0], np.float32)}
    run = RunResult({}, {"a": feeds["a"]})
    assert _strip_feeds(run, feeds) is False and list(run.observed) == ["a"]


def test_a_run_ending_with_other_names_than_its_feeds_keeps_them():
    """Mutants killed: ``tail != list(feeds)`` → ``>`` or ``<``: a run whose last observation has another name
    than the feed (sorting before it, or after it) was looked up under the feed's names."""
    feeds = {"m": np.array([1.0], np.float32)}
    for other in ("a", "z"):
        run = RunResult({}, {"y": feeds["m"], other: feeds["m"]})
        assert _strip_feeds(run, feeds) is False and list(run.observed) == ["y", other], other
