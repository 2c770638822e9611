"""Delta debugging (Zeller's ddmin) over a list, bounded by a deadline."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def ddmin(
    items: Sequence[T],
    holds: Callable[[list[T]], bool],
    deadline: float,
    on_smaller: Callable[[list[T]], None] | None = None,
) -> tuple[list[T], bool]:
    """A 1-minimal sublist of ``items`` (order kept) for which ``holds`` is true, or the smallest
    found when ``time.monotonic()`` passes ``deadline``.

    ``holds(items)`` is assumed true. Returns ``(sublist, finished)``; ``on_smaller`` is called
    with each smaller sublist found (for progress and resumption).
    """
    current, n = list(items), 2
    while len(current) >= 2:
        size = -(-len(current) // n)
        chunks = [current[i : i + size] for i in range(0, len(current), size)]
        reduced = False
        for chunk in chunks:  # a chunk alone
            if time.monotonic() > deadline:
                return current, False
            if len(chunks) > 1 and holds(chunk):
                current, n, reduced = chunk, 2, True
                break
        if not reduced:
            for chunk in chunks:  # everything but a chunk
                if time.monotonic() > deadline:
                    return current, False
                rest = [x for x in current if x not in chunk]
                if rest and holds(rest):
                    current, n, reduced = rest, max(n - 1, 2), True
                    break
        if reduced:
            if on_smaller:
                on_smaller(current)
            continue
        if n >= len(current):
            break
        n = min(len(current), 2 * n)
    return current, True
