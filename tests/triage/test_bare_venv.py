"""Issue 31: each bundle ``passcheck triage`` writes runs where only onnx, onnxruntime, numpy and the tool
under test are installed. A venv is built with exactly those (the versions installed here, through uv and its
cache), and a small real triage verifies every ``repro.py`` there (``--python``: under ``python -I``, each kept
only when it exits 1 with that interpreter; each script runs once, not once here and once there). The triage
holds a real onnxruntime segfault (``optional-input/layernorm-bias`` at ``ort:extended``), a finding on a form
itself (onnxruntime cannot run ``optional-input/squeeze-axes``'s ``empty-name``), an onnxscript crash and missed
foldings."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from passcheck.cli import main
from passcheck.repro.plan import _WITHOUT_PASSCHECK
from tests import _bare_venv

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory):
    """The interpreter of the venv without passcheck (tests/_bare_venv.py: kept in passcheck's cache)."""
    return _bare_venv.bare_python(tmp_path_factory)


@pytest.fixture(scope="module")
def counted_python(tmp_path_factory, bare_python):
    """A wrapper of the bare interpreter that appends each call's arguments to ``calls.log`` beside it: which
    scripts the triage ran there, and how often."""
    d = tmp_path_factory.mktemp("counted")
    wrapper = d / "python"
    log, bare = shlex.quote(str(d / "calls.log")), shlex.quote(str(bare_python))
    wrapper.write_text(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {log}\nexec {bare} "$@"\n')
    wrapper.chmod(0o755)
    return wrapper


@pytest.fixture(scope="module")
def triaged(tmp_path_factory, counted_python):
    """The triage folder of two small real runs (onnxruntime at extended; the onnxscript optimizer), each bundle
    verified with the bare venv's interpreter (``--python``, through :func:`counted_python`)."""
    d = tmp_path_factory.mktemp("triage")
    runs = {
        "ort.json": ["optional-input/layernorm-bias", "optional-input/squeeze-axes", "shape/dynamic-1-3-output"],
        "onnxscript.json": ["optional-input/conv-bn"],
    }
    for name, cases in runs.items():
        pass_id = "ort:extended" if name == "ort.json" else "onnxscript:optimize"
        argv = ["run", *(w for c in cases for w in ("--case", c)), "--pass", pass_id, "--json", str(d / name), "-q"]
        assert main(argv) == 1
    argv = ["triage", str(d / "ort.json"), str(d / "onnxscript.json"), "--out", str(d / "t")]
    assert main([*argv, "--python", str(counted_python)]) == 0
    return d / "t"


def test_the_bare_venv_has_only_the_tools(bare_python):
    r = subprocess.run([str(bare_python), "-I", "-c", "import passcheck"], capture_output=True, text=True)
    assert r.returncode == 1 and "No module named 'passcheck'" in r.stderr, r.stderr
    for own in ("rich", "junitparser", "uv", "jsonschema"):  # passcheck's own dependencies are absent too
        r = subprocess.run([str(bare_python), "-I", "-c", f"import {own}"], capture_output=True, text=True)
        assert r.returncode == 1, f"{own} is not one of the bare packages"


def test_every_bundle_exits_1_in_a_venv_with_only_the_tools(counted_python, triaged):
    folders = sorted(p for p in triaged.iterdir() if p.is_dir())
    cands = [json.loads((p / "candidate.json").read_text()) for p in folders]
    assert len(cands) >= 5 and all(c["status"] == "reproduced" for c in cands), [
        (p.name, c["status"], c.get("why")) for p, c in zip(folders, cands)
    ]
    # reproduced with --python: each repro.py exited 1 with the bare interpreter (run there once, under -I), and
    # its BUG: line is the candidate's why
    ran = [ln for ln in (counted_python.parent / "calls.log").read_text().splitlines() if ln.endswith("repro.py")]
    assert sorted(ran) == sorted(f"-I -c {_WITHOUT_PASSCHECK} {(p / 'repro.py').resolve()}" for p in folders), ran
    assert all(c["verified_with"] == str(counted_python) for c in cands), cands
    said = {p.name: c["why"] for p, c in zip(folders, cands)}
    reps = {p.name: c["representative"] for p, c in zip(folders, cands)}
    segv = [n for n, f in reps.items() if f["pass_id"] == "ort:extended" and f["kind"] == "rejected"]
    assert segv and "killed its process (SIGSEGV)" in said[segv[0]], said
    form = [n for n, f in reps.items() if f["pass_id"] == "input"]
    assert form and "onnxruntime cannot run the valid model empty-name" in said[form[0]], said
    assert any(f["oracle"] == "folding" for f in reps.values()), reps
    assert any(f["pass_id"] == "onnxscript:optimize" and f["kind"] == "rejected" for f in reps.values()), reps


def test_a_python_without_the_tools_here_is_a_one_line_error(tmp_path, capsys):
    """``--python`` of a venv without onnx, onnxruntime, numpy, onnxscript: every REPORT.md names the versions
    here, so the triage refuses it (exit 2, one line naming each tool) and writes nothing."""
    from passcheck.matrix.create import EnvCreateError, uv_bin

    try:
        uv = uv_bin()
    except EnvCreateError as exc:
        pytest.skip(str(exc))
    made = subprocess.run([uv, "venv", "-q", "--python", sys.executable, str(tmp_path / "v")], capture_output=True)
    assert made.returncode == 0, made.stderr
    run = tmp_path / "r.json"
    assert main(["run", "--case", "optional-input/squeeze-axes", "--pass", "ort:basic", "--json", str(run), "-q"]) == 1
    capsys.readouterr()
    code = main(["triage", str(run), "--out", str(tmp_path / "t"), "--python", str(tmp_path / "v" / "bin" / "python")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1, err
    assert "onnx None there, " in err[0] and "onnxruntime None there, " in err[0], err
    assert not (tmp_path / "t").exists()


def test_the_bare_venv_is_kept_with_its_bytecode_and_a_stale_one_is_built_again(bare_python, tmp_path, monkeypatch):
    """The venv is kept in passcheck's cache (tests/_bare_venv.py): asked again, the same folder, not rebuilt;
    ``python -I`` writes the bytecode of what it imports into it. A folder whose ready file names other pins (or
    none: a build that stopped) is removed and built anew."""
    ready = bare_python.parents[1] / _bare_venv.READY
    said = json.loads(ready.read_text())
    assert said["pins"] == [f"{p}=={version(p)}" for p in _bare_venv.BARE]
    before = ready.stat().st_mtime_ns
    assert _bare_venv.bare_python() == bare_python and ready.stat().st_mtime_ns == before
    r = subprocess.run([str(bare_python), "-I", "-c", "import onnx; print(onnx.__file__)"], capture_output=True,
                       text=True)  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert list((Path(r.stdout.strip()).parent / "__pycache__").glob("__init__.*.pyc")), r.stdout

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path))
    stale = tmp_path / "test-venvs" / bare_python.parents[1].name
    stale.mkdir(parents=True)
    (stale / "left.txt").write_text("from an older build")
    (stale / _bare_venv.READY).write_text(json.dumps({**said, "pins": ["onnx==0.0"]}))
    python = _bare_venv.bare_python()
    assert python == stale / "bin" / "python" and not (stale / "left.txt").exists()
    assert json.loads((stale / _bare_venv.READY).read_text()) == said
    code = f"from importlib.metadata import version; print(*(version(p) for p in {_bare_venv.BARE!r}))"
    r = subprocess.run([str(python), "-I", "-c", code], capture_output=True, text=True)  # read, not imported
    assert r.stdout.split() == [version(p) for p in _bare_venv.BARE], r.stdout + r.stderr
