"""Another package ships a pass adapter through the ``passcheck.passes`` entry-point group:
``list --passes`` lists it and ``check`` runs it. The package (tests/passes/plugin_pkg: a module
and its dist-info) is put on the path of a fresh ``python -m passcheck`` process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import onnx
from onnx import TensorProto, helper

PKG = Path(__file__).parent / "plugin_pkg"


def _cli(*args, cwd):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PKG), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)}
    return subprocess.run(
        [sys.executable, "-m", "passcheck", *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=600
    )


def _model(path: Path) -> Path:
    g = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["n"]), helper.make_node("Abs", ["n"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])],
        value_info=[helper.make_tensor_value_info("n", TensorProto.FLOAT, ["N", 4])],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), path)
    return path


def test_list_passes_shows_plugin_adapters_and_a_broken_one_with_its_reason(tmp_path):
    p = _cli("list", "--passes", "--json", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    rows = {r["id"]: r for r in json.loads(p.stdout)}
    assert rows["demo:drop-value-info"]["description"] == "demo plugin: clears graph.value_info"
    assert rows["demo:drop-value-info"]["install"] == ""
    assert rows["demo:wrong"]["optimizes"] is True
    assert "could not be loaded: ImportError: the demo's tool is missing" in rows["demo:broken"]["install"]


def test_check_runs_plugin_adapters(tmp_path):
    model = _model(tmp_path / "m.onnx")
    # both adapters in one check (one passcheck process, not one each): each pass's cells are its own
    both = ["--pass", "demo:drop-value-info", "--pass", "demo:wrong", "--json", str(tmp_path / "r.json")]
    run = _cli("check", str(model), *both, cwd=tmp_path)
    assert run.returncode == 1, run.stdout + run.stderr  # demo:wrong's finding
    cells = json.loads((tmp_path / "r.json").read_text())["results"]
    ok = [c for c in cells if c["pass_id"] == "demo:drop-value-info"]
    assert ok and {c["status"] for c in ok} == {"changed"}, ok
    others = [c for c in cells if c["pass_id"] != "demo:wrong"]  # what check alone with it exits 0 on
    assert not any(c["findings"] for c in others), [f for c in others for f in c["findings"]]

    bad = [c for c in cells if c["pass_id"] == "demo:wrong"]
    kinds = {f["kind"] for c in bad for f in c["findings"]}
    assert "wrong-result" in kinds and "input-mutated" not in kinds, kinds  # it edits the copy run() gives it

    broken = _cli("check", str(model), "--pass", "demo:broken", cwd=tmp_path)  # asked for by name: bad input
    assert broken.returncode == 2 and "Traceback" not in broken.stderr, broken.stderr
    assert "demo:broken" in broken.stderr and "the demo's tool is missing" in broken.stderr
