"""``passcheck.runtime.lru.kept``: a cache of limit ``n`` holds the ``n`` most recently used entries."""

from __future__ import annotations

import collections

from passcheck.runtime.lru import kept


def test_a_cache_keeps_exactly_its_limit_of_the_most_recently_used_entries():
    cache: collections.OrderedDict = collections.OrderedDict()
    for key in "abc":
        assert kept(cache, key, lambda k=key: k.upper(), limit=2) == key.upper()
    assert list(cache) == ["b", "c"]
    assert kept(cache, "b", lambda: "made again", limit=2) == "B"  # a hit: not made, now the newest
    assert kept(cache, "d", lambda: "D", limit=2) == "D" and list(cache) == ["b", "d"]
    one: collections.OrderedDict = collections.OrderedDict()
    assert kept(one, "x", lambda: 1, limit=1) == 1 and list(one) == ["x"]
