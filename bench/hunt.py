"""Benchmark: hunt throughput (items/s) per pass route, side by side in one run (issue 30).

Runs ``passcheck hunt`` (the console script, as a user would) for the same budget, seed and case
selection once per route:

- ``in-process``: the built-in passes (``ort:basic``, ``onnx:infer-shapes``, ``onnxscript:optimize``);
- ``onnxslim:slim`` / ``onnxsim:simplify``: the tool's Python API in the reused pass worker;
- ``cmd+fold:onnxslim`` / ``cmd+fold:onnxsim``: the same tool as a command, a process per model.

and prints for each: the items it tried (read from its hunt state, ``hunt-state.json``), its wall
time (the whole command: start-up, the coverage map, the budget, the summary), items/s over the
search itself (the rate the hunt prints in its summary: items over the time after the map was
read, the figure issue 30's goals are about), items/s over the wall time, and the 1-minute load
average when the route ended (other processes on the machine share its cores). Then the ratio of
each Python-API route's search rate to its command route's. A route whose tool is not installed is
printed as ``-`` with the reason.

Run: ``python bench/hunt.py [--budget 60s] [--seed 1] [--case GLOB]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROUTES = [
    ("in-process", ["ort:basic", "onnx:infer-shapes", "onnxscript:optimize"], None),
    ("onnxslim:slim", ["onnxslim:slim"], "onnxslim"),
    ("cmd+fold:onnxslim", ["cmd+fold:onnxslim"], "onnxslim"),
    ("onnxsim:simplify", ["onnxsim:simplify"], "onnxsim"),
    ("cmd+fold:onnxsim", ["cmd+fold:onnxsim"], "onnxsim"),
]


def _passcheck() -> list[str]:
    exe = Path(sys.executable).with_name("passcheck")
    return [str(exe)] if exe.is_file() else [sys.executable, "-m", "passcheck"]


def _route(passes: list[str], budget: str, seed: int, cases: list[str]) -> tuple[int, float, float | None, str]:
    """(items tried, wall seconds, the hunt's own items/s or None, why it failed or "")."""
    with tempfile.TemporaryDirectory(prefix="bench-hunt-") as out:
        cmd = [*_passcheck(), "hunt", "--budget", budget, "--seed", str(seed), "--out", out, "--progress", "none"]
        for p in passes:
            cmd += ["--pass", p]
        for c in cases:
            cmd += ["--case", c]
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.perf_counter() - t0
        state = Path(out) / "hunt-state.json"
        if proc.returncode not in (0, 1) or not state.is_file():
            return 0, wall, None, (proc.stderr.strip().splitlines() or ["no output"])[-1]
        items = len(json.loads(state.read_text()).get("items", []))
        said = re.search(r"; ([0-9.]+) items/s;", proc.stderr)
        return items, wall, float(said.group(1)) if said else None, ""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--budget", default="60s", help="each route's hunt budget (default 60s)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--case", action="append", default=[], help="case glob (repeatable; default: every base)")
    args = p.parse_args(argv)
    rates: dict[str, float] = {}
    print(f"{'route':<20} {'items':>6} {'wall s':>7} {'search items/s':>14} {'wall items/s':>12} {'load':>5}")
    for name, passes, module in ROUTES:
        if module and importlib.util.find_spec(module) is None:
            print(
                f"{name:<20} {'-':>6} {'-':>7} {'-':>14} {'-':>12}  ({module} is not installed: pip install {module})"
            )
            continue
        items, wall, search, why = _route(passes, args.budget, args.seed, args.case)
        load = os.getloadavg()[0]
        if why:
            print(f"{name:<20} {'-':>6} {wall:>7.1f} {'-':>14} {'-':>12} {load:>5.1f}  ({why})")
            continue
        rates[name] = search if search is not None else items / wall
        shown = f"{search:.2f}" if search is not None else "-"
        print(f"{name:<20} {items:>6} {wall:>7.1f} {shown:>14} {items / wall if wall else 0.0:>12.2f} {load:>5.1f}")
    for api, cmd in (("onnxslim:slim", "cmd+fold:onnxslim"), ("onnxsim:simplify", "cmd+fold:onnxsim")):
        if rates.get(api) and rates.get(cmd):
            print(f"{api} / {cmd}: {rates[api] / rates[cmd]:.1f}x search items/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
