"""The order the xdist workers run the suite in: the slowest tests first on every worker, in balanced shares.

pytest-xdist's ``worksteal`` scheduler (pyproject's ``--dist worksteal``) gives each of its ``k`` workers one
contiguous slice of the collected order (the first ``n // k`` tests, then ``n // (k - 1)`` of the rest, …) and,
when a worker runs dry, moves the *tail* of the fullest worker's queue to it (xdist's
``scheduler/worksteal.py``). In collection order the slow tests sat wherever their files sorted, and a long test
started late was waited for at the end. :func:`layout` puts the tests a committed durations table lists as slow
at the head of the slices with their modules, dealt longest-first to the slice with the least listed time (a
module stays on one worker, which builds its module fixtures once), and fills each slice with the other tests in
collection order: what is stolen at the end is short.

The table (``tests/durations.json``, ``{"tests": {nodeid: seconds}}``) is made from a JUnit report of a whole
run by ``python scripts/suite_durations.py report.xml``. A test it does not list counts as fast; a listed test
that no longer exists is ignored: a stale table costs time, never a test.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

TABLE = Path(__file__).with_name("durations.json")


def slices(n: int, k: int) -> list[int]:
    """The sizes of the ``k`` slices worksteal's first distribution cuts ``n`` tests into (in order)."""
    sizes = []
    for i in range(k):
        sizes.append(n // (k - i))
        n -= sizes[-1]
    return sizes


def load_table(path: Path = TABLE) -> dict[str, float]:
    """``{nodeid: seconds}`` of the durations table; ``{}`` when there is none."""
    try:
        return {str(k): float(v) for k, v in json.loads(path.read_text())["tests"].items()}
    except FileNotFoundError:
        return {}


def layout(ids: Sequence[str], seconds: dict[str, float], k: int) -> list[int]:
    """A permutation of ``range(len(ids))``: the order to run the tests ``ids`` (node ids, collection order) in
    on ``k`` worksteal workers, ``seconds`` the listed tests' times. The modules holding a listed test head the
    slices, whole (a module fixture is built on one worker), the longest first, each on the slice with the least
    listed time that has room; the other tests fill the slices in collection order. With ``k < 2`` or nothing
    listed, the collection order."""
    sizes = slices(len(ids), k) if k >= 2 else []
    modules: dict[str, list[int]] = {}
    for i, nodeid in enumerate(ids):
        modules.setdefault(nodeid.split("::", 1)[0], []).append(i)
    weight = {m: sum(seconds.get(ids[i], 0.0) for i in tests) for m, tests in modules.items()}
    units = sorted((m for m in modules if weight[m] > 0), key=lambda m: (-weight[m], modules[m][0]))
    if not sizes or not units:
        return list(range(len(ids)))
    heads: list[list[int]] = [[] for _ in sizes]
    loads = [0.0] * k
    for m in units:
        room = [s for s in range(k) if len(heads[s]) + len(modules[m]) <= sizes[s]]
        if room:  # a module too big for any slice's room stays where collection put it
            s = min(room, key=lambda s: (loads[s], s))
            heads[s].extend(modules[m])
            loads[s] += weight[m]
    moved = {i for head in heads for i in head}
    rest = iter(i for i in range(len(ids)) if i not in moved)
    order: list[int] = []
    for head, size in zip(heads, sizes):
        order.extend(head)
        order.extend(next(rest) for _ in range(size - len(head)))
    return order


def reorder(items: list[T], ids: Sequence[str], k: int, seconds: dict[str, float] | None = None) -> list[T]:
    """``items`` in :func:`layout`'s order (``seconds`` defaults to the committed table)."""
    order = layout(ids, load_table() if seconds is None else seconds, k)
    return [items[i] for i in order]
