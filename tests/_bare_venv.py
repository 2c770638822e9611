"""A venv holding only onnx, onnxruntime, numpy and onnxscript (the versions installed here, through uv and its
cache), never passcheck. Where a triage bundle's ``repro.py`` (tests/triage) and a ``passcheck repro`` script
(tests/upstream) must run without passcheck. Read it, never install into it.

It is kept between test runs in passcheck's cache (``$PASSCHECK_CACHE``, else ``~/.cache/passcheck``:
``test-venvs/bare-<key>``, the key the interpreter and the pins), built once per machine under a file lock shared by
the xdist workers and by test runs at once. A venv made anew each run held no bytecode (uv installs none), so every
run compiled what the scripts import twice: once into the venv by ``python -I`` (which ignores
``$PYTHONPYCACHEPREFIX``), once into the prefix by the scripts' own children, under a path new each run (6.2 s of
CPU for ``import onnx, onnxruntime, onnxscript, numpy`` cold, 1.9 s warm)."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
from filelock import FileLock

#: The only packages of the bare venv (uv adds what they depend on: protobuf, onnx_ir, ml_dtypes …).
BARE = ("onnx", "onnxruntime", "numpy", "onnxscript")
#: Written last into a finished venv: its pins and interpreter (a folder without it is a build that stopped).
READY = "passcheck-bare.json"


def bare_python(tmp_path_factory: pytest.TempPathFactory | None = None) -> Path:
    """The venv's interpreter (``tmp_path_factory`` is unused: the venv lives in passcheck's cache).

    Raises:
        pytest.skip.Exception: no uv, or the pinned versions cannot be installed (no cached wheel and no
            index): an environment gap, not a finding.
    """
    from passcheck._cache import cache_root

    pins = [f"{p}=={version(p)}" for p in BARE]
    said = {"python": os.path.realpath(sys.executable), "version": sys.version, "pins": pins}
    key = hashlib.sha256(json.dumps(said, sort_keys=True).encode()).hexdigest()[:12]
    root = cache_root() / "test-venvs" / f"bare-{key}"
    root.parent.mkdir(parents=True, exist_ok=True)
    with FileLock(str(root) + ".lock"):
        ready = root / READY
        if not (ready.is_file() and json.loads(ready.read_text()) == said):
            shutil.rmtree(root, ignore_errors=True)
            try:
                _bare_venv(root, pins)
            except BaseException:  # a skip or a failure leaves no half-built venv to reuse
                shutil.rmtree(root, ignore_errors=True)
                raise
            ready.write_text(json.dumps(said, sort_keys=True))
    return root / "bin" / "python"


def _bare_venv(root: Path, pins: list[str]) -> None:
    from passcheck.matrix.create import EnvCreateError, uv_bin

    try:
        uv = uv_bin()
    except EnvCreateError as exc:
        pytest.skip(str(exc))
    env = {**os.environ, "UV_NO_PROGRESS": "1"}
    made = subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(root)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    python = root / "bin" / "python"
    r = subprocess.run(
        [uv, "pip", "install", "-q", "--python", str(python), *pins], capture_output=True, text=True, env=env
    )
    if r.returncode:
        pytest.skip(f"uv pip install {' '.join(pins)} failed: " + " | ".join(r.stderr.strip().splitlines()[-3:]))
