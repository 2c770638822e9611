"""What passcheck's own process imports: the tools' heavier packages stay in the isolation worker
and its template (:mod:`passcheck.execution.template` imports the passes' ``warm`` modules, e.g.
onnxscript, for them), never in the process that parses the command line or lists cases. Each
probe is a fresh interpreter (a test process has imported everything already)."""

from __future__ import annotations

import json
import subprocess
import sys

#: Imported by the worker's template or by a pass's apply, never by passcheck's own process here.
WORKER_ONLY = {"onnxscript", "onnx_ir", "sympy"}

PROBE = """
import contextlib, json, os, sys
from passcheck.cli import main
with open(os.devnull, "w") as null, contextlib.redirect_stdout(null), contextlib.redirect_stderr(null):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exc:  # --help
        code = exc.code
print(json.dumps({"code": code, "modules": sorted(m for m in sys.modules if "." not in m)}))
"""


def _imported(*argv: str) -> set[str]:
    """Top-level modules in ``sys.modules`` after ``passcheck ARGV`` in a fresh interpreter (exit 0)."""
    out = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, check=True)
    got = json.loads(out.stdout.splitlines()[-1])
    assert got["code"] == 0, out.stderr
    return set(got["modules"])


def test_help_imports_none_of_the_tools():
    assert _imported("--help") & (WORKER_ONLY | {"onnx", "onnxruntime", "ml_dtypes"}) == set()


def test_listing_generated_case_ids_imports_no_worker_only_tool():
    """Building the case list with the generated set (the registry of every generated case, its
    forms unbuilt), and the warm list of the default passes, import no onnxscript in passcheck's process."""
    imported = _imported("list", "--case", "generated/relu-*")
    assert "onnx" in imported  # the probe sees what was imported
    assert imported & WORKER_ONLY == set()
