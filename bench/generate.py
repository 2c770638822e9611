"""Benchmark the generated set under the default passes in this environment.

Runs the generated cases (or an evenly spaced sample) exactly as ``passcheck run --case
'generated/*'`` does (every default pass isolated in a worker, every form judged), and prints
cases/s, cells/s, the slowest ops, and the time the whole set would take at that rate.

With ``--jobs N`` the cases are split into N contiguous slices run in N processes (as N matrix
shards of one environment would run them).

Usage: python bench/generate.py [--case 'generated/*'] [--sample 200] [--jobs 2] [--pass ID ...]
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

from passcheck._versions import tool_version
from passcheck.cases import registry
from passcheck.engine import Subject, evaluate
from passcheck.passes import DEFAULT_PASSES
from passcheck.passes.isolation import IsolatedExecutor


def run_slice(ids: list[str], passes: list[str]) -> tuple[int, int, dict[str, float]]:
    """Evaluate the cases ``ids`` under ``passes``: (cells, findings, seconds per op)."""
    reg = registry()
    reg.select(["generated/*"])
    per_op: dict[str, float] = defaultdict(float)
    cells = findings = 0
    ex = IsolatedExecutor()
    version = tool_version("onnx")
    try:
        for cid in ids:
            case = reg.get(cid)
            s = time.perf_counter()
            out = evaluate(Subject.from_case(case, version), passes, executor=ex)
            per_op[next((t[3:] for t in case.tags if t.startswith("op:")), case.id)] += time.perf_counter() - s
            cells += len(out)
            findings += sum(len(c.findings) for c in out)
    finally:
        ex.close()
    return cells, findings, dict(per_op)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", default="generated/*")
    ap.add_argument("--sample", type=int, default=0, help="run every k-th case so that about N run (0: all)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--pass", dest="passes", action="append", default=[])
    args = ap.parse_args()
    t0 = time.perf_counter()
    cases = registry().select([args.case])
    load = time.perf_counter() - t0
    chosen = [c.id for c in (cases[:: max(1, len(cases) // args.sample)] if args.sample else cases)]
    passes = args.passes or list(DEFAULT_PASSES)
    n = max(1, args.jobs)
    slices = [chosen[i * len(chosen) // n : (i + 1) * len(chosen) // n] for i in range(n)]
    t1 = time.perf_counter()
    with ProcessPoolExecutor(n, mp_context=multiprocessing.get_context("spawn")) as pool:
        results = list(pool.map(run_slice, slices, [passes] * n))
    wall = time.perf_counter() - t1
    cells = sum(r[0] for r in results)
    findings = sum(r[1] for r in results)
    per_op: dict[str, float] = defaultdict(float)
    for r in results:
        for op, t in r[2].items():
            per_op[op] += t
    print(
        f"selection {args.case!r}: {len(cases)} cases (loaded in {load:.1f} s); ran {len(chosen)} under {len(passes)} passes in {n} process(es)"
    )
    print(
        f"{len(chosen) / wall:.2f} cases/s, {cells / wall:.1f} cells/s, {cells} cells, {findings} findings, {wall:.0f} s"
    )
    print(f"whole selection at this rate: {len(cases) / (len(chosen) / wall) / 60:.1f} min")
    print("slowest ops (s):", ", ".join(f"{op} {t:.1f}" for op, t in sorted(per_op.items(), key=lambda kv: -kv[1])[:8]))


if __name__ == "__main__":
    main()
