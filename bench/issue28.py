"""Issue 28's two product costs, before and after, side by side (wall and CPU = user + system of the
measured process and everything it waited for):

1. the node-test collection of a partial set (``tests/nodetests``' six names by default): onnx's
   ``collect_testcases(None)`` filtered afterwards (before) vs :func:`passcheck.nodetests.select.collect`
   (after), each in a fresh interpreter; the two must give the same tests, model bytes and data;
2. a small ``passcheck matrix`` run (two environments, ``--case``/``--pass`` below: 32 cells by default)
   from a base tree (``--base DIR``, e.g. ``git archive ee5122de | tar -x -C DIR``) and from this tree,
   each with its own ``--out``; with the worker processes each started (``strace -f -e execve``, when
   strace is installed): one ``worker run`` and one pass worker per environment is the pooled shape.

Usage: python bench/issue28.py [--base DIR] [--env onnx-1.22 --env onnx-1.23] [--skip-matrix]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
NAMES = [
    "test_abs",
    "test_slice_neg_steps",
    "test_reduce_sum_empty_axes_input_noop",
    "test_reshape_allowzero_reordered",
    "test_gather_negative_indices",
    "test_sequence_insert_at_back",
]

_COLLECT = r"""
import hashlib, json, sys, warnings
import numpy as np
names = json.loads(sys.argv[2])
with warnings.catch_warnings(), np.errstate(all="ignore"):
    warnings.simplefilter("ignore")
    if sys.argv[1] == "before":
        import fnmatch
        from onnx.backend.test.case.node import collect_testcases
        tests = [t for t in collect_testcases(None) if any(fnmatch.fnmatchcase(t.name, g) for g in names)]
    else:
        from passcheck.nodetests.select import collect
        tests = collect(names)
def digest(t):
    h = hashlib.sha256(t.model.SerializeToString(deterministic=True))
    for inputs, outputs in t.data_sets:
        for v in [*inputs, *outputs]:
            h.update(repr(v).encode())
    return h.hexdigest()[:16]
ran = sum(m.startswith("onnx.backend.test.case.node.") for m in sys.modules)
print(json.dumps({"tests": {t.name: digest(t) for t in sorted(tests, key=lambda t: t.name)}, "modules": ran}))
"""


def measured(cmd: list[str], **kw) -> tuple[float, float, subprocess.CompletedProcess]:
    """(wall s, CPU s of the process and its waited-for descendants, the completed process)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc


def row(what: str, before: tuple[float, float], after: tuple[float, float]) -> str:
    (wb, cb), (wa, ca) = before, after
    return f"{what:<34} wall {wb:7.1f} → {wa:7.1f} s ({wb / wa:4.1f}x)   CPU {cb:7.1f} → {ca:7.1f} s ({cb / ca:4.1f}x)"


def collection(names: list[str]) -> str:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    runs = {}
    for side in ("before", "after"):
        wall, cpu, proc = measured([sys.executable, "-c", _COLLECT, side, json.dumps(names)], env=env)
        if proc.returncode:
            raise SystemExit(f"collection ({side}) failed:\n{proc.stderr[-2000:]}")
        runs[side] = (wall, cpu, json.loads(proc.stdout.strip().splitlines()[-1]))
    same = runs["before"][2]["tests"] == runs["after"][2]["tests"]
    if not same:
        raise SystemExit(f"the two collections differ: {runs['before'][2]['tests']} vs {runs['after'][2]['tests']}")
    mods = f"example modules imported {runs['before'][2]['modules']} → {runs['after'][2]['modules']}"
    return (
        row(f"node tests ({len(names)} names)", runs["before"][:2], runs["after"][:2])
        + f"\n    {len(runs['after'][2]['tests'])} tests, same model bytes and data; {mods}"
    )


def matrix(base: Path, envs: list[str], case: str, pass_id: str, scratch: Path) -> str:
    figures, starts, reports = {}, {}, {}
    strace = shutil.which("strace")
    for side, tree in (("before", base), ("after", REPO)):
        out = scratch / f"matrix-{side}"
        shutil.rmtree(out, ignore_errors=True)
        trace = scratch / f"execve-{side}.txt"
        cmd = [sys.executable, "-m", "passcheck", "matrix", *(x for e in envs for x in ("--env", e))]
        cmd += ["--case", case, "--pass", pass_id, "--out", str(out), "--progress", "none", "--source", str(tree)]
        if strace:
            cmd = [strace, "-f", "-qq", "-e", "trace=execve", "-e", "signal=none", "-o", str(trace), *cmd]
        wall, cpu, proc = measured(cmd, env={**os.environ, "PYTHONPATH": str(tree)}, cwd=scratch)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"passcheck matrix ({side}) exited {proc.returncode}:\n{proc.stderr[-2000:]}")
        figures[side] = (wall, cpu)
        text = trace.read_text() if strace else ""
        starts[side] = sum("passcheck.matrix.worker" in x and "= 0" in x for x in text.splitlines())
        doc = json.loads((out / "report.json").read_text())
        reports[side] = sorted(
            (c["case"], c["form"], c["pass_id"], c["env"], c["status"], len(c.get("findings", [])))
            for c in doc.get("results", [])
        )
    cells = len(reports["after"])
    return (
        row(f"matrix ({len(envs)} envs, {cells} cells)", figures["before"], figures["after"])
        + f"\n    worker starts (execve) {starts['before']} → {starts['after']}; cells and verdicts "
        + ("equal" if reports["before"] == reports["after"] else "DIFFER")
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", type=Path, help="the base tree (default: this tree on both sides)")
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--case", default="optional-input/clip-*")
    ap.add_argument("--pass", dest="pass_id", default="ort:basic")
    ap.add_argument("--name", action="append", default=[], help="node-test names (default: tests/nodetests')")
    ap.add_argument("--skip-matrix", action="store_true")
    args = ap.parse_args()
    print(collection(args.name or NAMES))
    if not args.skip_matrix:
        with tempfile.TemporaryDirectory(prefix="passcheck-bench-") as tmp:
            print(matrix(args.base or REPO, args.env or ["onnx-1.22", "onnx-1.23"], args.case, args.pass_id, Path(tmp)))


if __name__ == "__main__":
    main()
