"""Re-measure the hunt's cost table (``passcheck/hunt/cost.py``: seconds per item per pass) on this machine.

Runs one short ``passcheck hunt --pass P`` per pass (the console script, one after the other, same
budget, seed and bases), reads each item's ``seconds`` from its ``hunt-state.json`` (the pass on both
forms, the oracles and the shrinking of a new signature: what the scheduler's cost model stands for)
and prints per pass the items, the mean and median seconds, the table's figure today, and the 1-minute
load average when that hunt ended; then the ``TABLE`` entries to paste (the version converter's
``-down`` and ``-up`` items pooled under ``onnx:convert-opset``, as :func:`item_seconds` reads them).
The items' own seconds do not include the coverage map, so a cold cache costs wall time only.

Run: ``python bench/cost.py [--budget 45s] [--seed 1] [--pass ID]... [--generated]``; record the load
with the figures (2 shared cores: a figure at load 15 is 2-4 times one unloaded).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path


def _hunt(pass_id: str, budget: str, seed: int, generated: bool, out: Path) -> list[float]:
    """The seconds of each item one ``--pass pass_id`` hunt tried."""
    argv = ["passcheck", "hunt", "--pass", pass_id, "--budget", budget, "--seed", str(seed)]
    argv += ["--out", str(out), "--progress", "none", *([] if generated else ["--no-generated"])]
    subprocess.run(argv, capture_output=True, text=True, check=False)
    try:
        items = json.loads((out / "hunt-state.json").read_text())["items"]
    except (OSError, ValueError, KeyError):
        return []
    return [i["seconds"] for i in items if "seconds" in i]


def main(argv: list[str] | None = None) -> int:
    from passcheck.hunt.cost import TABLE
    from passcheck.passes import known_pass_ids

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--budget", default="45s", help="each pass's hunt budget (default: %(default)s)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pass", dest="passes", action="append", default=[], metavar="ID", help="default: every pass")
    p.add_argument("--generated", action="store_true", help="draw from the generated set too")
    args = p.parse_args(argv)
    passes = args.passes or list(known_pass_ids())
    pooled: dict[str, list[float]] = {}
    print(f"{'pass':32} {'items':>5} {'mean s':>7} {'median':>7} {'table':>6} {'load':>5}")
    with tempfile.TemporaryDirectory() as tmp:
        for pass_id in passes:
            seconds = _hunt(pass_id, args.budget, args.seed, args.generated, Path(tmp) / pass_id.replace(":", "_"))
            key = "onnx:convert-opset" if pass_id.startswith("onnx:convert-opset-") else pass_id
            pooled.setdefault(key, []).extend(seconds)
            mean = f"{statistics.fmean(seconds):.2f}" if seconds else "-"
            median = f"{statistics.median(seconds):.2f}" if seconds else "-"
            table = f"{TABLE[key]:.2f}" if key in TABLE else "-"
            load = os.getloadavg()[0]
            print(f"{pass_id:32} {len(seconds):5} {mean:>7} {median:>7} {table:>6} {load:5.1f}", flush=True)
    print("\nTABLE entries (mean seconds per item):")
    for key, seconds in pooled.items():
        if seconds:
            print(f'    "{key}": {statistics.fmean(seconds):.2f},  # {len(seconds)} items')
    return 0


if __name__ == "__main__":
    sys.exit(main())
