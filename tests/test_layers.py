"""The layer contract (docs/architecture.md, "Layers") holds, and both of its checks can fail.

Two checks read the same contract (``[tool.importlinter]`` in pyproject.toml): import-linter's
``lint-imports`` (grimp: every import statement, at any depth of a module) and
``scripts/check_layers.py`` (passcheck's own, over the AST: import statements at any depth plus
``importlib.import_module("…")`` / ``__import__("…")`` literals, and import circles inside one
layer). Each planted violation goes into a copy of the package, never the tree itself.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "passcheck"
CONFIG = ROOT / "pyproject.toml"


def _lint_imports(cwd: Path, pythonpath: Path | None = None) -> subprocess.CompletedProcess:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    if exe is None:
        pytest.fail("lint-imports (import-linter) is not installed: pip install -e '.[test]'")
    env = {**os.environ, "PYTHONPATH": str(pythonpath) if pythonpath else os.environ.get("PYTHONPATH", "")}
    return subprocess.run([exe, "--no-cache", "--config", str(cwd / "pyproject.toml")], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


def _check_layers(root: Path, config: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "check_layers.py"), "--root", str(root),
                           "--config", str(config)], capture_output=True, text=True, timeout=300)


#: (module, code appended to it): each violation lives in its own module, so one copy holds them all.
PLANTS = {
    # the data layer reaching up into a front door, hidden inside a function: both checks see it
    "records.py": "def _planted():\n    from passcheck.cli import run\n\n    return run\n",
    # a module name given as a string: import-linter cannot read it, the AST check does
    "oracles/registry.py": "def _planted():\n    import importlib\n\n    return importlib.import_module('passcheck.engine')\n",
    # independent siblings (mutations | generate): both see it
    "mutations/forms.py": "def _planted():\n    from passcheck import generate\n\n    return generate\n",
    # cases/_registry imports cases/sources; this closes a circle inside one layer (allowed by the
    # layers contract, refused by the circle check)
    "cases/sources.py": "def _planted():\n    from passcheck.cases import _registry\n\n    return _registry\n",
}


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    """A copy of the package and its contract with every violation of :data:`PLANTS` planted."""
    tree = tmp_path_factory.mktemp("layers")
    shutil.copytree(PACKAGE, tree / "passcheck", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(CONFIG, tree / "pyproject.toml")
    for module, code in PLANTS.items():
        path = tree / "passcheck" / module
        path.write_text(path.read_text(encoding="utf-8") + "\n\n" + code, encoding="utf-8")
    return tree


def test_the_package_keeps_the_layer_contract():
    proc = _lint_imports(ROOT)
    assert proc.returncode == 0 and "1 kept, 0 broken" in proc.stdout, proc.stdout + proc.stderr


def test_the_ast_check_keeps_it_too_with_no_import_circle():
    proc = _check_layers(PACKAGE, CONFIG)
    assert proc.returncode == 0 and "no import circle" in proc.stdout, proc.stdout + proc.stderr


def test_lint_imports_fails_on_planted_statements_and_cannot_see_a_string(planted):
    out = _lint_imports(planted, pythonpath=planted)
    assert out.returncode == 1 and "0 kept, 1 broken" in out.stdout, out.stdout
    assert "passcheck.records -> passcheck.cli.run" in out.stdout, out.stdout
    assert "passcheck.mutations.forms -> passcheck.generate" in out.stdout, out.stdout
    assert "passcheck.oracles.registry -> passcheck.engine" not in out.stdout  # what only the AST check catches


def test_the_ast_check_fails_on_each_planted_import_and_the_circle(planted):
    out = _check_layers(planted / "passcheck", planted / "pyproject.toml").stdout
    assert "passcheck.records:" in out and "imports passcheck.cli.run (statement), a layer above" in out, out
    assert "passcheck.oracles.registry:" in out and "imports passcheck.engine (string), a layer above" in out, out
    assert "passcheck.mutations.forms:" in out and "imports passcheck.generate (statement), an independent sibling" in out, out
    circles = [line for line in out.splitlines() if line.startswith("import circle:")]
    assert any("passcheck.cases._registry" in c and "passcheck.cases.sources" in c for c in circles), out
