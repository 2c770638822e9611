"""Benchmark: hunt throughput (items/s) per pass route, side by side in one run (issue 30).

Runs ``passcheck hunt`` (the console script, as a user would) for the same budget, seed and case
selection once per route:

- ``in-process``: the built-in passes (``ort:basic``, ``onnx:infer-shapes``, ``onnxscript:optimize``);
- ``onnxslim:slim`` / ``onnxsim:simplify``: the tool's Python API in the reused pass worker;
- ``cmd+fold:onnxslim`` / ``cmd+fold:onnxsim``: the same tool as a command, a process per model.

and prints items/s for each with the ratio of each Python-API route to its command route. The
items a route tried are read from its hunt state (``hunt-state.json``). A route whose tool is not
installed is printed as ``-`` with the reason.

Run: ``python bench/hunt.py [--budget 60s] [--seed 1] [--case GLOB]``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
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


def _route(passes: list[str], budget: str, seed: int, cases: list[str]) -> tuple[int, float, str]:
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
            return 0, wall, (proc.stderr.strip().splitlines() or ["no output"])[-1]
        items = len(json.loads(state.read_text()).get("items", []))
        return items, wall, ""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--budget", default="60s", help="each route's hunt budget (default 60s)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--case", action="append", default=[], help="case glob (repeatable; default: every base)")
    args = p.parse_args(argv)
    rates: dict[str, float] = {}
    print(f"{'route':<20} {'items':>6} {'wall s':>7} {'items/s':>8}")
    for name, passes, module in ROUTES:
        if module and importlib.util.find_spec(module) is None:
            print(f"{name:<20} {'-':>6} {'-':>7} {'-':>8}  ({module} is not installed: pip install {module})")
            continue
        items, wall, why = _route(passes, args.budget, args.seed, args.case)
        if why:
            print(f"{name:<20} {'-':>6} {wall:>7.1f} {'-':>8}  ({why})")
            continue
        rates[name] = items / wall if wall else 0.0
        print(f"{name:<20} {items:>6} {wall:>7.1f} {rates[name]:>8.2f}")
    for api, cmd in (("onnxslim:slim", "cmd+fold:onnxslim"), ("onnxsim:simplify", "cmd+fold:onnxsim")):
        if rates.get(api) and rates.get(cmd):
            print(f"{api} / {cmd}: {rates[api] / rates[cmd]:.1f}x items/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
