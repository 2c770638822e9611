"""The distribution is onnx-passcheck (``passcheck`` on the public index is another project):
metadata, docs and workflows never install the taken name, and the wheel ships the pins so
``passcheck matrix --list`` works from a wheel install."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import tomllib

REPO = Path(__file__).resolve().parents[2]
TAKEN = re.compile(r"pip3?\s+install\s+(?:-\S+\s+)*['\"]?passcheck\b(?![-_.\w])")


def test_metadata_names_the_free_distribution_and_keeps_the_command():
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert meta["name"] == "onnx-passcheck"
    assert meta["scripts"] == {"passcheck": "passcheck.cli:run"}
    assert meta["description"] and meta["readme"] == "README.md" and meta["license"] and meta["classifiers"]


def test_no_doc_or_workflow_installs_the_taken_name():
    files = [REPO / "README.md", REPO / "action.yml", *(REPO / "ci").glob("*.*"), *(REPO / "docs").rglob("*.md")]
    hits = [f"{f.name}: {m.group(0)}" for f in files for m in TAKEN.finditer(f.read_text())]
    assert hits == []
    assert TAKEN.search("pip install -U passcheck") and TAKEN.search("pip install 'passcheck'")
    assert not TAKEN.search("pip install onnx-passcheck") and not TAKEN.search("pip install passcheck-extra")


def test_wheel_ships_the_pins_and_lists_them_outside_a_checkout(tmp_path):
    src = tmp_path / "src"
    for name in ("passcheck", "cases", "ci/envs"):
        shutil.copytree(REPO / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy2(REPO / name, src / name)
    from passcheck.matrix.create import uv_bin

    subprocess.run(
        [uv_bin(), "build", "-q", "--wheel", "-o", str(tmp_path / "dist"), str(src)], check=True, capture_output=True
    )
    (wheel,) = (tmp_path / "dist").glob("onnx_passcheck-*.whl")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(tmp_path / "site"), str(wheel)],
        check=True,
        capture_output=True,
    )
    code = "import passcheck, sys; print(passcheck.__file__); from passcheck.cli import main; sys.exit(main(['matrix', '--list']))"
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(tmp_path / "site"), "HOME": str(tmp_path)},
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith(str(tmp_path / "site"))
    ids = [x.split()[0] for x in lines[1:] if x.startswith("onnx-")]
    assert ids == sorted(p.stem for p in (REPO / "ci" / "envs").glob("*.txt"))
    assert str(tmp_path / "site" / "passcheck" / "_envs") in proc.stdout
