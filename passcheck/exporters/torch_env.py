"""A cached virtual environment with torch (CPU build) and passcheck, for exporting torch models.

torch is large, so it is never a dependency of passcheck's own environment: this module makes one
venv at :func:`env_dir` (``$PASSCHECK_TORCH_ENV``, else ``$PASSCHECK_CACHE/exporters/torch-<ver>``,
else ``~/.cache/passcheck/exporters/torch-<ver>``) with ``pip install <TORCH_SPEC>`` and passcheck
from this source checkout, and reuses it. Run ``python -m passcheck.exporters.torch_env --build``
to make it; it prints the seconds taken and the size on disk.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

TORCH_VERSION = "2.13.0"
#: what pip installs; ``PASSCHECK_TORCH_SPEC`` overrides (a version, or a local wheel path).
TORCH_SPEC = os.environ.get("PASSCHECK_TORCH_SPEC", f"torch=={TORCH_VERSION}")
#: PyTorch's CPU-only index: pip takes a CPU build from there, never a multi-GB CUDA one.
#: ``PASSCHECK_TORCH_INDEX=""`` leaves pip's own configuration (e.g. a find-links folder holding a CPU wheel).
CPU_INDEX = os.environ.get("PASSCHECK_TORCH_INDEX", "https://download.pytorch.org/whl/cpu")
ROOT = Path(__file__).resolve().parents[2]


def env_dir() -> Path:
    if os.environ.get("PASSCHECK_TORCH_ENV"):
        return Path(os.environ["PASSCHECK_TORCH_ENV"])
    cache = Path(os.environ.get("PASSCHECK_CACHE") or Path.home() / ".cache" / "passcheck")
    return cache / "exporters" / f"torch-{TORCH_VERSION}"


def python() -> Path | None:
    """The env's Python when the env exists and imports torch and passcheck's dependencies, else None."""
    exe = env_dir() / "bin" / "python"
    if not exe.is_file():
        return None
    ok = subprocess.run([str(exe), "-c", "import torch, onnx, onnxruntime, onnxscript"], capture_output=True, timeout=300)
    return exe if ok.returncode == 0 else None


def build() -> tuple[Path, float, int]:
    """Make the env (or complete it); returns (python, seconds, size in MB).

    Raises:
        subprocess.CalledProcessError: venv creation or an install failed (pip's output is shown).
    """
    d = env_dir()
    start = time.monotonic()
    if not (d / "bin" / "python").is_file():
        subprocess.run([sys.executable, "-m", "venv", str(d)], check=True)
    pip = [str(d / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run(pip + (["--extra-index-url", CPU_INDEX] if CPU_INDEX else []) + [TORCH_SPEC], check=True)
    subprocess.run(pip + ["-e", str(ROOT)], check=True)
    seconds = time.monotonic() - start
    size = sum(f.stat().st_size for f in d.rglob("*") if f.is_file() and not f.is_symlink()) >> 20
    return d / "bin" / "python", seconds, size


def main() -> int:
    if "--build" in sys.argv[1:]:
        exe, seconds, size = build()
        print(f"{exe}: built in {seconds:.0f} s, {size} MB")
        return 0
    exe = python()
    print(exe or f"no torch env at {env_dir()}; make it with: python -m passcheck.exporters.torch_env --build")
    return 0 if exe else 1


if __name__ == "__main__":
    sys.exit(main())
