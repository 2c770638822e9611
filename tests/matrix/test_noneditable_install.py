"""Every command that installs passcheck elsewhere finds its source the same way from a
non-editable install run outside the checkout: the folder pip/uv recorded (``direct_url.json``).
A fresh venv gets ``uv pip install <checkout>``; each command runs from another folder."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from passcheck.matrix.create import uv_bin
from tests._checkout import copy_checkout
from tests._shared import built_once

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.matrix  # creates a venv with uv and installs into it from the package index cache


def _install(root: Path) -> None:
    src = root / "clone"  # a copy of the tree: the install records this folder, not the test's checkout
    copy_checkout(REPO, src)  # its own files only, not a CI clone's .ci-venv/ (tests/_checkout.py)
    uv = uv_bin()
    subprocess.run([uv, "venv", "-q", str(root / "venv")], check=True)
    subprocess.run(
        [uv, "pip", "install", "-q", "--python", str(root / "venv" / "bin" / "python"), str(src)], check=True
    )
    (root / "elsewhere").mkdir()


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(the venv's bin folder, a folder outside the checkout, the installed copy of the tree) with passcheck
    installed non-editable; built once per test run (tests/_shared.py). Tests write below their own tmp_path."""
    root, _ = built_once(tmp_path_factory, "noneditable-install", _install)
    return root / "venv" / "bin", root / "elsewhere", root / "clone"


def _env():
    return {k: v for k, v in os.environ.items() if k not in ("PASSCHECK_SOURCE", "PYTHONPATH", "VIRTUAL_ENV")}


def test_the_install_is_not_editable_and_records_its_origin(installed):
    bin_, elsewhere, src = installed
    p = subprocess.run(
        [
            str(bin_ / "python"),
            "-c",
            "import passcheck, json, importlib.metadata as m;"
            "print(json.dumps([passcheck.__file__, m.distribution('onnx-passcheck').read_text('direct_url.json')]))",
        ],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=_env(),
        check=True,
    )
    where, direct = json.loads(p.stdout)
    assert "site-packages" in where and json.loads(direct)["url"].endswith(str(src))


def test_matrix_runs_from_a_non_editable_install(installed, tmp_path):
    bin_, elsewhere, _src = installed
    p = subprocess.run(
        [
            str(bin_ / "passcheck"),
            "matrix",
            "--env",
            "onnx-1.23",
            "--case",
            "constant/*",
            "--pass",
            "onnx:infer-shapes",
            "--out",
            str(tmp_path / "m"),
            "-q",
            "--progress",
            "none",
        ],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=_env(),
    )
    assert p.returncode in (0, 1), p.stderr[-3000:]
    assert (tmp_path / "m" / "report.json").is_file()


def test_bisect_finds_the_source_from_a_non_editable_install(installed, tmp_path):
    bin_, elsewhere, _src = installed
    p = subprocess.run(
        [str(bin_ / "passcheck"), "bisect", "--help"], capture_output=True, text=True, cwd=elsewhere, env=_env()
    )
    assert p.returncode == 0 and "--source" in p.stdout
    code = "from passcheck.matrix.envs import installable_source; print(installable_source())"
    p = subprocess.run([str(bin_ / "python"), "-c", code], capture_output=True, text=True, cwd=elsewhere, env=_env())
    assert p.returncode == 0 and Path(p.stdout.strip()) == installed[2], p.stderr[-2000:]


def test_the_torch_env_build_installs_passcheck_into_the_target_env(installed, tmp_path):
    bin_, elsewhere, _src = installed
    target = tmp_path / "torch-env"
    # The target env exists with passcheck's dependencies (uv links them from its cache, at the versions the
    # install above resolved): build() completes an existing env, so its pip installs passcheck itself from the
    # recorded source and finds every dependency satisfied instead of downloading and unpacking ~200 MB again.
    uv = uv_bin()
    subprocess.run([uv, "venv", "-q", "--seed", "--python", str(bin_ / "python"), str(target)], check=True)
    frozen = subprocess.run(
        [uv, "pip", "freeze", "--python", str(bin_ / "python")], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    deps = [line for line in frozen if line and not line.startswith("onnx-passcheck")]
    subprocess.run([uv, "pip", "install", "-q", "--python", str(target / "bin" / "python"), *deps], check=True)
    env = {**_env(), "PASSCHECK_TORCH_ENV": str(target), "PASSCHECK_TORCH_SPEC": ""}  # the torch download skipped
    p = subprocess.run(
        [str(bin_ / "python"), "-m", "passcheck.exporters.torch_env", "--build"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=env,
        timeout=1800,
    )
    assert p.returncode == 0, p.stderr[-3000:]
    q = subprocess.run(
        [str(target / "bin" / "python"), "-c", "import passcheck, sys; print(passcheck.__file__)"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=_env(),
    )
    assert q.returncode == 0 and "site-packages" in q.stdout, q.stderr[-2000:]


def test_without_any_source_the_error_says_what_to_give(tmp_path):
    code = (
        "import passcheck.matrix.envs as e; e.source_root = lambda *a: None; e.recorded_origin = lambda: None\n"
        "try:\n    e.installable_source()\nexcept Exception as x:\n    print(x)"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, env=_env())
    assert "give --source DIR or set PASSCHECK_SOURCE" in p.stdout
