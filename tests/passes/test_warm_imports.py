"""The tool modules a worker template imports ahead for the passes to run (``PassAdapter.warm``,
:func:`passcheck.passes.imports_of`): the template forks every worker, so what it imports must
start no thread, and finding them imports nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from passcheck.passes import DEFAULT_PASSES, imports_of
from passcheck.passes._registry import _FIXED


def test_the_default_passes_warm_onnxscript_and_ort_levels_nothing():
    assert "onnxscript" in imports_of(DEFAULT_PASSES)  # onnxscript:optimize is a default pass
    assert imports_of(["ort:basic", "ort:all", "onnx:infer-shapes"]) == ()
    assert imports_of(["onnxscript:optimize", "onnxscript:rewrite"]) == ("onnxscript",)  # once each
    assert imports_of(["no-such:pass", "cmd:'tool {in} {out}'", "onnx:convert-opset-18"]) == ()


PROBE = """
import json, os, sys
import numpy, onnx  # what the template imports first (passcheck.execution.template.PRELOAD)
before = {int(t) for t in os.listdir("/proc/self/task")}
for name in sys.argv[1:]:
    __import__(name)
after = {int(t) for t in os.listdir("/proc/self/task")}
print(json.dumps({"threads": sorted(after - before), "onnxruntime": "onnxruntime" in sys.modules}))
"""


def test_every_warmed_module_imports_without_starting_a_thread():
    """A fork keeps only the forking thread: a module whose import started one (onnxruntime's
    thread pool) would be broken in every worker. Counted at the OS level (``/proc/self/task``),
    after numpy and onnx, as in the template."""
    warm = sorted({m for adapter in _FIXED.values() for m in adapter.warm})
    assert warm  # the probe checks something
    out = subprocess.run([sys.executable, "-c", PROBE, *warm], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == {"threads": [], "onnxruntime": False}


RUN = """
import sys
import passcheck
report = passcheck.run(["optional-input/conv-mul"], passes=sys.argv[1:])
print(len(report.cells))
"""


def _import_lines(tmp_path, argv: list[str]) -> list[str]:
    """The ``import NAME`` timing lines (the worker template's warmed imports) of one run."""
    timings = tmp_path / "timings.jsonl"
    timings.unlink(missing_ok=True)
    env = {**os.environ, "PASSCHECK_TIMINGS": str(timings)}
    proc = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=tmp_path, timeout=600)
    assert proc.returncode in (0, 1), proc.stderr  # 1: findings, a verdict on the passes, not a failure here
    return [r["job"] for r in map(json.loads, timings.read_text().splitlines()) if r["job"].startswith("import ")]


def test_the_api_and_the_cli_warm_what_their_passes_import(tmp_path):
    """``passcheck.run(passes=["onnxscript:optimize"])`` has the template import onnxscript before
    its worker's first job; ``passcheck run --pass ort:basic`` warms nothing (onnxruntime starts
    threads, the template imports it never)."""
    api = _import_lines(tmp_path, [sys.executable, "-c", RUN, "onnxscript:optimize"])
    assert api == ["import onnxscript"]
    cli = [sys.executable, "-m", "passcheck", "run", "--case", "optional-input/conv-mul", "--pass", "ort:basic", "-q"]
    assert _import_lines(tmp_path, cli) == []
