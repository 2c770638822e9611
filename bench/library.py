"""Benchmark: the whole hand-written case library under the default passes, in this environment.

Runs :func:`passcheck.api.run` exactly as ``passcheck run`` does (every case, default passes,
an isolated worker) and prints cells/s and the time per cell split into:

- pass: the executor running one pass (worker round trip included);
- model runs: the executor's model runs (baselines of each form and runs of every pass output);
- oracles: ``oracles.registry.judge`` (every registered oracle on a group of cells, the
  reference evaluator they start included) and the annotation coverage of each record;
- other: the rest (building forms, feeds, hashing, records).

The split is measured by wrapping those functions with timers in this process, so the four
parts add up to the wall time. The slowest cases and passes are listed, so the next
optimization is visible.

Run: ``python bench/library.py [--case GLOB]… [--pass ID]… [--top N]``.
"""

from __future__ import annotations

import argparse
import collections
import functools
import time

import onnx
import onnxruntime as ort

from passcheck import api
from passcheck.oracles import annotations, registry
from passcheck.passes.isolation import IsolatedExecutor

SPENT: collections.Counter = collections.Counter()
BY_PASS: collections.Counter = collections.Counter()
_DEPTH = [0]


def _timed(part: str, fn, key=None):
    """``fn`` wrapped so its time is added to ``part`` (outermost timed call only: no double count)."""

    @functools.wraps(fn)
    def wrapper(*args, **kw):
        if _DEPTH[0]:
            return fn(*args, **kw)
        _DEPTH[0] += 1
        t = time.perf_counter()
        try:
            return fn(*args, **kw)
        finally:
            dt = time.perf_counter() - t
            _DEPTH[0] -= 1
            SPENT[part] += dt
            if key:
                BY_PASS[key(*args)] += dt

    return wrapper


def instrument() -> None:
    IsolatedExecutor.__call__ = _timed("pass", IsolatedExecutor.__call__, key=lambda self, adapter, *a: adapter.id)
    IsolatedExecutor.run_model = _timed("model runs", IsolatedExecutor.run_model)
    registry.judge = _timed("oracles", registry.judge)  # every oracle of a group of cells
    annotations.coverage = _timed("oracles", annotations.coverage)  # read by each cell record


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", action="append", default=[], help="case glob (default: every case)")
    ap.add_argument("--pass", dest="passes", action="append", default=[], help="pass id (default: the default passes)")
    ap.add_argument("--top", type=int, default=8, help="slowest cases listed")
    args = ap.parse_args()
    instrument()
    per_case: collections.Counter = collections.Counter()
    last = [time.perf_counter()]

    def on_cell(cell) -> None:
        now = time.perf_counter()
        per_case[cell.case] += now - last[0]
        last[0] = now

    start = time.perf_counter()
    report = api.run(args.case, args.passes, on_cell=on_cell)
    wall = time.perf_counter() - start
    cells = len(report.cells)
    verdicts = collections.Counter(c.verdict for c in report.cells)
    print(
        f"onnx {onnx.__version__}, onnxruntime {ort.__version__}; {len({c.case for c in report.cells})} cases, "
        f"{cells} cells ({', '.join(f'{k} {v}' for k, v in verdicts.most_common())})"
    )
    kinds = collections.Counter(f"{f.oracle}:{f.kind}" for c in report.cells for f in c.findings)
    print("findings: " + (", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "none"))
    print(f"wall {wall:.1f} s: {cells / wall:.2f} cells/s, {1000 * wall / cells:.1f} ms per cell")
    other = wall - sum(SPENT.values())
    print(f"{'part':<12}{'total s':>10}{'ms/cell':>10}{'share':>8}")
    for part, secs in [*SPENT.most_common(), ("other", other)]:
        print(f"{part:<12}{secs:>10.1f}{1000 * secs / cells:>10.1f}{secs / wall:>8.0%}")
    print("pass time by pass (worker round trip included):")
    for pid, secs in BY_PASS.most_common():
        print(f"  {pid:<28}{secs:>8.1f} s")
    print("slowest cases (wall between their cells):")
    for case, secs in per_case.most_common(args.top):
        print(f"  {case:<48}{secs:>8.1f} s")


if __name__ == "__main__":
    main()
