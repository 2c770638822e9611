"""Benchmark the coverage map and the coverage-guided hunt in this environment.

1. Time to compute the map over the selected bases (the first form of each case), cold (an empty
   cache) and warm (everything cached), in bases/s.
2. The coverage-guided hunt against the current one (triples only, ``--no-coverage``) on the same
   bases, passes, seed and time budget, side by side: items/s (cells/s: one item is one pair
   judged under one pass), catalogue entries with a spelling tried, (entry, spelling) pairs tried,
   and distinct signatures; then the ratios guided / current.

Usage: python bench/coverage.py [--case GLOB]... [--generated] [--pass ID]... [--budget 60s] [--seed 0]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path


def _hunt(bases, passes, seed, budget, cmap, out: Path) -> dict:
    from passcheck.hunt.search import hunt
    from passcheck.hunt.store import Store
    from passcheck.passes.isolation import IsolatedExecutor

    store = Store.open(out, {"seed": seed, "passes": passes}, False)
    t0 = time.perf_counter()
    with IsolatedExecutor() as ex:
        ended = hunt(store, bases, passes, seed, budget, ex, cmap=cmap)
    wall = time.perf_counter() - t0
    return {"items": ended.items, "seconds": wall, "items_per_s": ended.items / wall, "store": store}


def main() -> None:
    from passcheck.coverage.cache import Cache
    from passcheck.coverage.map import compute
    from passcheck.coverage.report import tried
    from passcheck.hunt.budget import Budget
    from passcheck.hunt.coverage import chosen_bases
    from passcheck.hunt.space import bases as hunt_bases
    from passcheck.passes import DEFAULT_PASSES
    from passcheck.passes.isolation import IsolatedExecutor

    ap = argparse.ArgumentParser()
    ap.add_argument("--case", action="append", default=[])
    ap.add_argument("--generated", action="store_true", help="with no --case: the generated set too")
    ap.add_argument("--pass", dest="passes", action="append", default=[])
    ap.add_argument("--budget", default="60s")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    passes = args.passes or list(DEFAULT_PASSES)
    firsts = chosen_bases(args.case, args.generated)
    with tempfile.TemporaryDirectory(prefix="passcheck-bench-cov-") as d, IsolatedExecutor() as ex:
        t0 = time.perf_counter()
        compute(firsts, ex, cache=Cache(folder=Path(d)))
        cold = time.perf_counter() - t0
        t1 = time.perf_counter()
        cmap = compute(firsts, ex, cache=Cache(folder=Path(d)))
        warm = time.perf_counter() - t1
    print(
        f"map over {len(firsts)} bases: cold {cold:.1f} s ({len(firsts) / cold:.1f} bases/s), warm {warm:.2f} s; "
        f"{sum(map(cmap.triggered, cmap.entries))} of {len(cmap.entries)} entries triggered"
    )
    bases = hunt_bases(args.case, args.generated)
    budget = Budget.parse(args.budget)
    rows = {}
    with tempfile.TemporaryDirectory(prefix="passcheck-bench-hunt-") as d:
        for name, m in (("current", None), ("guided", cmap)):
            r = _hunt(bases, passes, args.seed, budget, m, Path(d) / name)
            t = tried(r["store"].items, cmap)
            pairs = sum(len(v["forms"]) for v in t.values())
            r.update(entries=len(t), pairs=pairs, signatures=len(r["store"].signatures))
            rows[name] = r
    cols = ("items", "items_per_s", "entries", "pairs", "signatures")
    print(f"hunt on {len(bases)} bases × {len(passes)} passes, budget {args.budget}, seed {args.seed}:")
    print("            " + "".join(f"{c:>14}" for c in cols))
    for name, r in rows.items():
        print(f"{name:>12}" + "".join(f"{r[c]:>14.2f}" if isinstance(r[c], float) else f"{r[c]:>14}" for c in cols))
    cur, gui = rows["current"], rows["guided"]
    ratio = "".join(f"{(gui[c] / cur[c]) if cur[c] else float('inf'):>14.2f}" for c in cols)
    print(f"{'guided/cur':>12}{ratio}")


if __name__ == "__main__":
    main()
