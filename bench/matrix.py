"""Benchmark the version matrix. Prints, in one run:

1. cold environment creation for the same pins: uv (empty uv cache) vs ``python -m venv`` + pip
   (empty pip cache); both download from the index;
2. the whole default matrix with warm environments (``--case 'constant/*'``) vs a single
   ``passcheck run`` of the same cases here: wall time, time to the first cell, the workers'
   summed time, and wall / (summed / jobs);
3. the per-cell overhead of the matrix over the in-process run.

Usage: python bench/matrix.py [--env onnx-1.18] [--case 'constant/*'] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from passcheck.matrix import create, envs, runner
from passcheck.matrix.plan import parse_shard

REPO = Path(__file__).resolve().parents[1]


def timed(cmd: list[str], **kw) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, **kw)
    return time.perf_counter() - t0


def cold_creation(spec: envs.EnvSpec) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="passcheck-bench-") as tmp:
        t = Path(tmp)
        pins = t / "pins.txt"
        pins.write_text("\n".join(spec.pins) + "\n")
        env = {**os.environ, "UV_CACHE_DIR": str(t / "uvcache"), "PIP_CACHE_DIR": str(t / "pipcache")}
        uv = create.uv_bin()
        base = getattr(sys, "_base_executable", sys.executable)
        t_uv = timed([uv, "venv", "-q", "--python", base, str(t / "uv")], env=env)
        t_uv += timed([uv, "pip", "install", "-q", "--python", str(t / "uv/bin/python"), "-r", str(pins)], env=env)
        t_pip = timed([base, "-m", "venv", str(t / "pip")], env=env)
        t_pip += timed(
            [str(t / "pip/bin/python"), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", str(pins)],
            env=env,
        )
        return t_uv, t_pip


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--env", default="onnx-1.18", help="pins used for the cold creation comparison")
    ap.add_argument("--case", default="constant/*")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    specs = envs.load_all(REPO / "ci" / "envs")
    spec = next(s for s in specs if s.id == args.env)

    t_uv, t_pip = cold_creation(spec)
    print(
        f"cold env creation ({spec.id}, empty caches): uv {t_uv:.1f} s, venv+pip {t_pip:.1f} s, ratio pip/uv {t_pip / t_uv:.1f}x"
    )

    t0 = time.perf_counter()
    for s in specs:
        create.ensure(s, REPO)
    print(f"ensure all {len(specs)} default envs (warm after first bench run): {time.perf_counter() - t0:.1f} s")

    with tempfile.TemporaryDirectory(prefix="passcheck-bench-") as tmp:
        out = Path(tmp) / "m"
        t0 = time.perf_counter()
        opts = runner.Options(
            envs=specs,
            out=out,
            source=REPO,
            cases=[args.case],
            jobs=args.jobs,
            shard=parse_shard("1/1"),
            progress=False,
        )
        outcome = runner.run(opts)
        wall = time.perf_counter() - t0
        first_cell = outcome.timings["first_cell"]
        summed = outcome.timings["workers"]
        n = len(outcome.cells)

        t0 = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "passcheck",
                "run",
                "--case",
                args.case,
                "-q",
                "--json",
                str(Path(tmp) / "one.json"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        t_single = time.perf_counter() - t0
        n_single = len(json.loads((Path(tmp) / "one.json").read_text())["results"])

    ideal = summed / args.jobs
    print(
        f"warm matrix ({len(specs)} envs, {args.case!r}, --jobs {args.jobs}): {n} cells, wall {wall:.1f} s, "
        f"first cell after {first_cell:.1f} s (target <= 3 s)"
    )
    print(
        f"  workers' summed time {summed:.1f} s; ideal wall with {args.jobs} jobs {ideal:.1f} s; "
        f"wall / ideal = {wall / ideal:.2f} (target <= 1.2)"
    )
    print(
        f"single-env 'passcheck run' here: {n_single} cells in {t_single:.1f} s "
        f"({t_single / n_single * 1000:.0f} ms/cell)"
    )
    per_cell_matrix = summed / n
    print(
        f"per-cell cost in the matrix: {per_cell_matrix * 1000:.0f} ms/cell of worker time; "
        f"overhead over in-process {1000 * (per_cell_matrix - t_single / n_single):.0f} ms/cell "
        f"(worker start-up, env check, streaming)"
    )


if __name__ == "__main__":
    main()
