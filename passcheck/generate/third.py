"""A third runtime for the generator's gate: onnxruntime in another Python environment (e.g. a pinned
one, ``$PASSCHECK_CACHE/envs/…/bin/python``), asked only where onnxruntime and the reference evaluator
disagree (:mod:`passcheck.generate.dissent`).

Each call runs one child process of that interpreter with onnxruntime alone (no passcheck there): the
model is loaded with every graph optimization off (``ORT_DISABLE_ALL``) on the CPU provider, as
``ort:disabled``, and run on the feeds. ``PASSCHECK_GENERATE_THIRD`` names the interpreter for
:func:`passcheck.generate.index`; its onnxruntime version is part of the generated set's cache key.
"""

from __future__ import annotations

import functools
import pickle
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_CHILD = r"""
import pickle, sys
import onnxruntime as ort
d = sys.argv[1]
with open(d + "/feeds.pkl", "rb") as f:
    feeds = pickle.load(f)
try:
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    so.log_severity_level = 3
    s = ort.InferenceSession(d + "/model.onnx", so, providers=["CPUExecutionProvider"])
    names = [o.name for o in s.get_outputs()]
    out = {"outputs": dict(zip(names, s.run(None, feeds))), "error": None}
except Exception as exc:
    out = {"outputs": {}, "error": f"{type(exc).__name__}: {exc}"}
with open(d + "/out.pkl", "wb") as f:
    pickle.dump(out, f)
"""


@functools.cache
def version(python: str) -> str:
    """The onnxruntime version ``python`` imports (e.g. ``1.31.1``).

    Raises:
        subprocess.CalledProcessError: it cannot import onnxruntime.
    """
    cmd = [python, "-c", "import onnxruntime; print(onnxruntime.__version__)"]
    return subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=120).stdout.strip()


class OtherOrt:
    """``(model, feeds) → RunResult``: one unoptimized onnxruntime run in the interpreter ``python``.

    A run that fails, or a child that dies or gives no answer in ``timeout`` seconds, is returned
    in ``error``, never raised."""

    def __init__(self, python: str, timeout: float = 120.0):
        self.python, self.timeout = python, timeout

    def __call__(self, model, feeds: Mapping[str, Any]):
        from passcheck.execution.payloads import whole
        from passcheck.runtime.session import RunResult

        with tempfile.TemporaryDirectory(prefix="passcheck-third-") as d:
            Path(d, "model.onnx").write_bytes(whole(model).SerializeToString())
            Path(d, "feeds.pkl").write_bytes(pickle.dumps(dict(feeds)))
            try:
                p = subprocess.run([self.python, "-c", _CHILD, d], capture_output=True, text=True, timeout=self.timeout)
            except OSError as exc:  # no such interpreter
                return RunResult({}, {}, error=f"onnxruntime in {self.python} not started: {exc}")
            except subprocess.TimeoutExpired:
                return RunResult({}, {}, error=f"onnxruntime in {self.python} gave no result in {self.timeout:g} s")
            out = Path(d, "out.pkl")
            if not out.exists():
                tail = (p.stderr or "").strip().splitlines()[-1:] or [f"exit status {p.returncode}"]
                return RunResult({}, {}, error=f"onnxruntime in {self.python} exited: {tail[0]}")
            got = pickle.loads(out.read_bytes())
        return RunResult(got["outputs"], dict(got["outputs"]), error=got["error"])

    def __repr__(self) -> str:
        return f"OtherOrt({self.python!r})"
