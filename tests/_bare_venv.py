"""A venv holding only onnx, onnxruntime, numpy and onnxscript (the versions installed here, through uv and its
cache), never passcheck: built once per test run and shared by the xdist workers (tests/_shared.py). Where a
triage bundle's ``repro.py`` (tests/triage) and a ``passcheck repro`` script (tests/upstream) must run without
passcheck. Read it, never install into it."""

from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from tests._shared import built_once

#: The only packages of the bare venv (uv adds what they depend on: protobuf, onnx_ir, ml_dtypes …).
BARE = ("onnx", "onnxruntime", "numpy", "onnxscript")


def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The venv's interpreter.

    Raises:
        pytest.skip.Exception: no uv, or the pinned versions cannot be installed (no cached wheel and no
            index): an environment gap, not a finding.
    """
    folder, _ = built_once(tmp_path_factory, "triage-bare-venv", _bare_venv)
    return folder / "venv" / "bin" / "python"


def _bare_venv(folder: Path) -> None:
    from passcheck.matrix.create import EnvCreateError, uv_bin

    try:
        uv = uv_bin()
    except EnvCreateError as exc:
        pytest.skip(str(exc))
    root = folder / "venv"
    env = {**os.environ, "UV_NO_PROGRESS": "1"}
    made = subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(root)], capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    python = root / "bin" / "python"
    pins = [f"{p}=={version(p)}" for p in BARE]
    r = subprocess.run(
        [uv, "pip", "install", "-q", "--python", str(python), *pins], capture_output=True, text=True, env=env
    )
    if r.returncode:
        pytest.skip(f"uv pip install {' '.join(pins)} failed: " + " | ".join(r.stderr.strip().splitlines()[-3:]))
