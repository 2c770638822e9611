"""The run cache's byte bound and eviction order, and what tells two feeds apart in its key: behaviours
survivors of ``bench/mutation_score.py`` showed unguarded (``passcheck.runtime.isolated.RunCache``), on
runs onnxruntime made."""

from __future__ import annotations

import numpy as np
from onnx import parser

from passcheck.runtime.isolated import RunCache
from passcheck.runtime.profile import TensorMeta
from passcheck.runtime.session import RunResult, run_ort
from tests.oracles.test_contract import RELU


def _run(n: int) -> RunResult:
    """onnxruntime's run of Relu on ``n`` float32s: ``12 * n`` bytes of arrays (the output ``y``, and ``y`` and
    the feed ``x`` observed)."""
    r = run_ort(parser.parse_model(RELU), {"x": np.ones(n, np.float32)})
    assert r.error is None and sorted(r.observed) == ["x", "y"] and r.outputs["y"].nbytes == 4 * n, r
    return r


def test_a_run_of_exactly_the_bound_is_kept_and_one_byte_more_is_not():
    """Mutants killed: ``self.size`` starting at 1, ``size > self.max_bytes`` → ``>=`` in ``put`` (both the
    refusal and the eviction loop): a run as large as the whole bound was dropped."""
    cache = RunCache(max_bytes=1200)
    cache.put("exact", _run(100))
    assert cache.get("exact") is not None and cache.size == 1200
    cache = RunCache(max_bytes=1199)
    cache.put("over", _run(100))
    assert cache.get("over") is None and cache.size == 0


def test_the_least_recently_used_run_is_dropped_first():
    """Mutants killed in ``put``'s eviction: ``popitem(last=False)`` → ``last=True`` (the run just put was
    dropped) and the size read from the wrong index of the popped item."""
    cache = RunCache(max_bytes=2400)
    cache.put("a", _run(100))
    cache.put("b", _run(100))
    assert cache.get("a") is not None  # a is now the most recently used
    cache.put("c", _run(100))
    assert (cache.has("a"), cache.has("b"), cache.has("c")) == (True, False, True)
    assert cache.size == 2400


def test_arrays_count_their_bytes_and_values_without_data_64_each():
    """Mutants killed in ``_nbytes``: ``type(value) is TensorMeta`` → ``is not`` (every array counted as 64
    bytes), and the 64 bytes of a TensorMeta or of a value with no ``nbytes`` → 65."""
    big = _run(1000)  # 12000 bytes: past an 11999-byte bound
    cache = RunCache(max_bytes=11999)
    cache.put("big", big)
    assert not cache.has("big")
    meta = RunResult({}, {"t": TensorMeta((2, 3), np.dtype(np.float32)), "u": TensorMeta((1,), np.dtype(np.int64))})
    plain = RunResult({}, {"s": None, "n": 3})
    for name, run in (("meta", meta), ("plain", plain)):
        cache = RunCache(max_bytes=128)
        cache.put(name, run)
        assert cache.has(name) and cache.size == 128, (name, cache.size)


def test_feeds_holding_sequences_of_other_values_have_other_keys():
    """Mutant killed: the loop over a sequence's elements in ``_digest_value`` made empty: two sequence feeds
    of one length and other values shared a key, so one's run answered the other."""
    one = RunCache.key(b"model", {"s": [np.array([1.0], np.float32)]}, ["y"])
    two = RunCache.key(b"model", {"s": [np.array([2.0], np.float32)]}, ["y"])
    assert one != two
    assert one == RunCache.key(b"model", {"s": [np.array([1.0], np.float32)]}, ["y"])
