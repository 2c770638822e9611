"""Issue 31: each bundle ``passcheck triage`` writes runs where only onnx, onnxruntime, numpy and the tool
under test are installed. A venv is built with exactly those (the versions installed here, through uv and its
cache), and every ``repro.py`` of a small real triage is run there under ``python -I``: each exits 1. The triage
holds a real onnxruntime segfault (``optional-input/layernorm-bias`` at ``ort:extended``), a finding on a form
itself (onnxruntime cannot run ``optional-input/squeeze-axes``'s ``empty-name``), an onnxscript crash and missed
foldings."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from passcheck.cli import main
from tests import _bare_venv

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory):
    """The interpreter of the venv without passcheck (tests/_bare_venv.py: built once per run)."""
    return _bare_venv.bare_python(tmp_path_factory)


@pytest.fixture(scope="module")
def triaged(tmp_path_factory):
    """The triage folder of two small real runs (onnxruntime at extended; the onnxscript optimizer)."""
    d = tmp_path_factory.mktemp("triage")
    runs = {
        "ort.json": ["optional-input/layernorm-bias", "optional-input/squeeze-axes", "shape/dynamic-1-3-output"],
        "onnxscript.json": ["optional-input/conv-bn"],
    }
    for name, cases in runs.items():
        pass_id = "ort:extended" if name == "ort.json" else "onnxscript:optimize"
        argv = ["run", *(w for c in cases for w in ("--case", c)), "--pass", pass_id, "--json", str(d / name), "-q"]
        assert main(argv) == 1
    assert main(["triage", str(d / "ort.json"), str(d / "onnxscript.json"), "--out", str(d / "t")]) == 0
    return d / "t"


def test_the_bare_venv_has_only_the_tools(bare_python):
    r = subprocess.run([str(bare_python), "-I", "-c", "import passcheck"], capture_output=True, text=True)
    assert r.returncode == 1 and "No module named 'passcheck'" in r.stderr, r.stderr
    for own in ("rich", "junitparser", "uv", "jsonschema"):  # passcheck's own dependencies are absent too
        r = subprocess.run([str(bare_python), "-I", "-c", f"import {own}"], capture_output=True, text=True)
        assert r.returncode == 1, f"{own} is not one of the bare packages"


def test_every_bundle_exits_1_in_a_venv_with_only_the_tools(bare_python, triaged):
    folders = sorted(p for p in triaged.iterdir() if p.is_dir())
    cands = [json.loads((p / "candidate.json").read_text()) for p in folders]
    assert len(cands) >= 5 and all(c["status"] == "reproduced" for c in cands), [
        (p.name, c["status"], c.get("why")) for p, c in zip(folders, cands)
    ]
    said = {}
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    def start(p):
        argv = [str(bare_python), "-I", "repro.py"]
        return subprocess.Popen(argv, cwd=p, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)

    # the first bundle alone (under -I its imports write the venv's bytecode, which uv does not install), then
    # every other bundle's repro.py at once, each its own process on its own folder
    for batch in (folders[:1], folders[1:]):
        runs = {p: start(p) for p in batch}
        try:
            for p, proc in runs.items():
                out, err = proc.communicate(timeout=300)
                assert proc.returncode == 1, (p.name, out, err)
                said[p.name] = next(ln for ln in out.splitlines() if ln.startswith("BUG:"))
        finally:
            for proc in runs.values():
                if proc.poll() is None:
                    proc.kill()
                    proc.communicate()
    reps = {p.name: c["representative"] for p, c in zip(folders, cands)}
    segv = [n for n, f in reps.items() if f["pass_id"] == "ort:extended" and f["kind"] == "rejected"]
    assert segv and "killed its process (SIGSEGV)" in said[segv[0]], said
    form = [n for n, f in reps.items() if f["pass_id"] == "input"]
    assert form and "onnxruntime cannot run the valid model empty-name" in said[form[0]], said
    assert any(f["oracle"] == "folding" for f in reps.values()), reps
    assert any(f["pass_id"] == "onnxscript:optimize" and f["kind"] == "rejected" for f in reps.values()), reps
