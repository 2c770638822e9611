"""Per-source overlays on a pinned environment (passcheck.matrix.create): two trees never reinstall passcheck under
each other's workers, and clean-up removes only overlays nobody holds.

Real uv, a real venv, a tiny installable source (no download but ``packaging`` as the pin, from uv's cache)."""

import os
import subprocess
import time
from pathlib import Path

import pytest

from passcheck.matrix import create, envs


def _source(root: Path, value: int) -> Path:
    (root / "passcheck").mkdir(parents=True)
    (root / "cases").mkdir()
    (root / "ci" / "envs").mkdir(parents=True)
    (root / "passcheck" / "__init__.py").write_text(f"VALUE = {value}\n")
    (root / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=61"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "onnx-passcheck"\nversion = "0.0.1"\ndependencies = []\n'
        "[tool.setuptools]\npackages = ['passcheck']\n"
    )
    return root


def _value(env: create.Env) -> str:
    out = subprocess.run(
        [str(env.python), "-c", "import passcheck, packaging; print(passcheck.VALUE)"],
        capture_output=True,
        text=True,
        cwd=env.root,
        env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"},
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


@pytest.fixture
def held(monkeypatch):
    monkeypatch.setattr(create, "_HELD", {})
    yield create._HELD
    for f in create._HELD.values():
        f.close()


def test_two_sources_get_two_overlays_and_clean_up_keeps_held_ones(tmp_path, held):
    import packaging

    pins = tmp_path / "tiny.txt"
    pins.write_text(f"packaging=={packaging.__version__}\n")
    spec = envs.load_spec(pins)
    cache = tmp_path / "cache"
    a = create.ensure(spec, _source(tmp_path / "a", 1), cache=cache)
    b = create.ensure(spec, _source(tmp_path / "b", 2), cache=cache)  # e.g. another worktree, same cache
    assert a.root != b.root and a.root.parent == b.root.parent
    assert (_value(a), _value(b)) == ("1", "2")  # the first run's workers still import their own source
    again = create.ensure(spec, tmp_path / "a", cache=cache)
    assert again.root == a.root and not again.created

    old = time.time() - 2 * create.OVERLAY_TTL
    for env in (a, b):
        os.utime(env.root / create.SOURCE_MARK, (old, old))
    held.pop(str(a.root)).close()  # the run that used a ended; b's run is still going
    c = create.ensure(spec, _source(tmp_path / "c", 3), cache=cache)
    assert not a.root.exists()
    assert b.root.exists() and _value(b) == "2"
    assert _value(c) == "3"
