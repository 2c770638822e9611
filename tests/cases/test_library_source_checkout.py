"""From a source checkout with no install (``PYTHONPATH=<checkout>``) the library's modules import their siblings as
``passcheck._library.<name>``, as from the wheel: ``cases/function_body_written.py`` imports
``passcheck._library.function_body_opsets``, and ``--case 'body-written/*'`` failed there with "No module named
'passcheck._library'" (round 20a, session 41)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent(
    """
    import importlib, sys
    real = importlib.import_module

    def no_wheel_library(name, *args):
        if name == "passcheck._library":  # what a source checkout without an install gives
            raise ImportError(name)
        return real(name, *args)

    importlib.import_module = no_wheel_library
    from passcheck.cases import _registry
    lib = _registry._library_dir()
    importlib.import_module = real
    import passcheck._library.function_body_opsets as opsets
    print(lib.name, opsets.__file__.startswith(str(lib)))
    """
)


def test_a_source_checkout_imports_library_siblings_by_their_wheel_name():
    out = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["cases", "True"], out.stdout
