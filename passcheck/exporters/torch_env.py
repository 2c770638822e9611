"""A cached virtual environment with torch (CPU build) and passcheck, for exporting torch models.

torch is large, so it is never a dependency of passcheck's own environment: this module makes one
venv at :func:`env_dir` (``$PASSCHECK_TORCH_ENV``, else ``$PASSCHECK_CACHE/exporters/torch-<ver>``,
else ``~/.cache/passcheck/exporters/torch-<ver>``) with ``pip install <TORCH_SPEC>`` and passcheck
from its source tree (found as for ``matrix``: ``--source DIR``, ``$PASSCHECK_SOURCE``, the
checkout, or the folder pip recorded for this install, see
:func:`passcheck.matrix.envs.installable_source`; installed non-editable), and reuses it. Run
``python -m passcheck.exporters.torch_env --build [--source DIR]`` to make it; it prints the
seconds taken and the size on disk.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

TORCH_VERSION = "2.13.0"
#: what pip installs; ``PASSCHECK_TORCH_SPEC`` overrides (a version, or a local wheel path; "" installs
#: no torch: the env then holds passcheck only, e.g. to test the set-up without the download).
TORCH_SPEC = os.environ.get("PASSCHECK_TORCH_SPEC", f"torch=={TORCH_VERSION}")
#: PyTorch's CPU-only index: pip takes a CPU build from there, never a multi-GB CUDA one.
#: ``PASSCHECK_TORCH_INDEX=""`` leaves pip's own configuration (e.g. a find-links folder holding a CPU wheel).
CPU_INDEX = os.environ.get("PASSCHECK_TORCH_INDEX", "https://download.pytorch.org/whl/cpu")


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
    ok = subprocess.run(
        [str(exe), "-c", "import torch, onnx, onnxruntime, onnxscript"], capture_output=True, timeout=300
    )
    return exe if ok.returncode == 0 else None


def build(source: str | Path | None = None) -> tuple[Path, float, int]:
    """Make the env (or complete it); returns (python, seconds, size in MB). ``source``: the
    passcheck source tree to install (default: found, see the module docs).

    Raises:
        PasscheckError: no passcheck source tree is found (before anything is installed).
        subprocess.CalledProcessError: venv creation or an install failed (pip's output is shown).
    """
    from passcheck.matrix.envs import installable_source

    root = installable_source(source)
    d = env_dir()
    start = time.monotonic()
    if not (d / "bin" / "python").is_file():
        subprocess.run([sys.executable, "-m", "venv", str(d)], check=True)
    pip = [str(d / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    if TORCH_SPEC:
        subprocess.run(pip + (["--extra-index-url", CPU_INDEX] if CPU_INDEX else []) + [TORCH_SPEC], check=True)
    subprocess.run(pip + [str(root)], check=True)  # non-editable: the env does not depend on where the tree was
    seconds = time.monotonic() - start
    size = sum(f.stat().st_size for f in d.rglob("*") if f.is_file() and not f.is_symlink()) >> 20
    return d / "bin" / "python", seconds, size


def main() -> int:
    import argparse

    from passcheck.errors import PasscheckError

    p = argparse.ArgumentParser(prog="python -m passcheck.exporters.torch_env", description=__doc__.splitlines()[0])
    p.add_argument("--build", action="store_true", help="make (or complete) the env")
    p.add_argument("--source", metavar="DIR", help="passcheck source tree to install (default: found automatically)")
    args = p.parse_args()
    if args.build:
        try:
            exe, seconds, size = build(args.source)
        except PasscheckError as exc:
            print(f"passcheck: error: {exc}", file=sys.stderr)
            return 2
        print(f"{exe}: built in {seconds:.0f} s, {size} MB")
        return 0
    exe = python()
    print(exe or f"no torch env at {env_dir()}; make it with: python -m passcheck.exporters.torch_env --build")
    return 0 if exe else 1


if __name__ == "__main__":
    sys.exit(main())
