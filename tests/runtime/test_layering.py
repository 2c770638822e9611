"""The runtime runs models and observes what the oracles asked for, without importing them."""

import ast
import subprocess
import sys
from pathlib import Path

import passcheck.runtime

RUNTIME = Path(passcheck.runtime.__file__).parent


def _imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return names


def test_no_runtime_module_imports_the_oracles():
    offenders = {
        p.name: sorted(m for m in _imported_modules(p) if m.startswith("passcheck.oracles"))
        for p in RUNTIME.glob("*.py")
    }
    assert not {k: v for k, v in offenders.items() if v}


def test_importing_the_runtime_loads_no_oracle():
    code = (
        "import sys, passcheck.runtime, passcheck.runtime.observe, passcheck.runtime.reference, passcheck.runtime.plan\n"
        "print(sorted(m for m in sys.modules if m.startswith('passcheck.oracles')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert out == "[]"
