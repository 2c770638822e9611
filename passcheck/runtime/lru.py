"""The one least-recently-used rule of the runtime's per-model caches (plans, fingerprints,
session copies, initializer metas): an ``OrderedDict``, the most recently used entry last."""

from __future__ import annotations

import collections
from collections.abc import Callable, Hashable
from typing import TypeVar

T = TypeVar("T")


def kept(cache: collections.OrderedDict, key: Hashable, make: Callable[[], T], limit: int) -> T:
    """``cache[key]``, made by ``make()`` and stored when absent; now the most recently used. The
    oldest entries beyond ``limit`` are dropped (nothing is stored when ``make`` raises)."""
    value = cache.get(key)
    if value is None:
        value = cache[key] = make()
        while len(cache) > limit:
            cache.popitem(last=False)
    cache.move_to_end(key)
    return value
