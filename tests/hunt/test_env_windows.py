"""``passcheck hunt --env A --env B``: the same items judged in two pinned environments whose
planted pass differs (``planted_versions.py`` misbehaves from onnxruntime 1.32 on), each signature's
version window, and ``passcheck bisect`` confirming it with the command the hunt printed.

The two pins files (``envs/``) are the onnx 1.23 line with onnxruntime 1.31.1 and 1.32.0: wheels
the matrix and bisect tests already put in uv's cache, so each environment is a hard-linked copy.
"""

import json
import shlex
from pathlib import Path

import pytest

from passcheck.cli import main
from passcheck.matrix.envs import load_spec
from passcheck.matrix.hunt import bisect_command

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PLANTED = HERE / "planted_versions.py"
OLD, NEW = HERE / "envs" / "hunt-ort-1.31.1.txt", HERE / "envs" / "hunt-ort-1.32.0.txt"
PASS = "planted:ort-1.32-drop"


@pytest.mark.matrix  # creates two pinned uv environments (and bisect two more)
def test_window_is_the_newer_env_only_and_bisect_confirms_it(tmp_path, capfd):
    out = tmp_path / "hunt"
    args = ["hunt", "--env", str(OLD), "--env", str(NEW), "--cases-from", str(PLANTED), "--pass", PASS]
    # until the first signature, however many rewrites come before one the planted pass misbehaves on
    args += ["--case", "attributes/leakyrelu-alpha", "--no-generated", "--no-coverage", "--budget", "40items"]
    args += ["--stop-after", "1"]
    args += ["--seed", "0", "--out", str(out), "--source", str(REPO), "--progress", "none"]
    assert main(args) == 1
    printed = capfd.readouterr().out
    state = json.loads((out / "hunt-state.json").read_text())
    assert state["scope"]["envs"] == ["hunt-ort-1.31.1", "hunt-ort-1.32.0"]
    for item in state["items"]:  # every item judged in both environments, from the same case module
        assert {e: v["status"] for e, v in item["envs"].items()} == {
            "hunt-ort-1.31.1": "judged",
            "hunt-ort-1.32.0": "judged",
        }, item
        assert item["envs"]["hunt-ort-1.31.1"]["signatures"] == []
    sigs = state["signatures"]
    assert sigs, printed
    for rec in sigs.values():
        assert rec["signature"]["pass_id"] == PASS and rec["signature"]["kind"] == "invalid-model"
        assert rec["window"] == {"present": ["hunt-ort-1.32.0"], "absent": ["hunt-ort-1.31.1"]}
        assert Path(rec["case_module"]).is_file()
    assert "window: present in hunt-ort-1.32.0; absent in hunt-ort-1.31.1" in printed
    rec = next(iter(sigs.values()))
    assert "--package onnxruntime --versions 1.31.1,1.32.0" in rec["bisect"] and rec["bisect"] in printed
    bisect = shlex.split(rec["bisect"])[1:] + ["--source", str(REPO), "--out", str(tmp_path / "bisect")]
    assert main(bisect) == 0
    doc = json.loads((tmp_path / "bisect" / "bisect.json").read_text())
    assert (doc["direction"], doc["last_old"], doc["first_new"]) == ("regression", "1.31.1", "1.32.0")
    assert [p["state"] for p in doc["probes"]] == ["bad", "good"]


def test_bisect_command_names_the_package_whose_pin_differs(tmp_path):
    a, b = load_spec(OLD), load_spec(NEW)
    window = {"present": [b.id], "absent": [a.id]}
    cmd = bisect_command([a, b], window, "c:uncommon|p|validity|invalid-model", ["m.py"])
    assert cmd == (
        "passcheck bisect --finding 'c:uncommon|p|validity|invalid-model' --cases-from m.py "
        "--package onnxruntime --versions 1.31.1,1.32.0"
    )
    same = tmp_path / "same-pins.txt"
    same.write_text(OLD.read_text())
    c = load_spec(same)
    assert bisect_command([a, c], {"present": [c.id], "absent": [a.id]}, "x", []).startswith(
        "no bisect: same-pins and hunt-ort-1.31.1 pin the same onnxruntime"
    )
    assert bisect_command([a, b], {"present": [a.id, b.id], "absent": [a.id]}, "x", []).startswith(
        "no bisect: the signature is not absent"
    )


def test_an_unknown_env_is_a_one_line_usage_error(tmp_path, capfd):
    code = main(
        ["hunt", "--env", "no-such-env", "--budget", "1items", "--out", str(tmp_path / "h"), "--progress", "none"]
    )
    err = capfd.readouterr().err.strip().splitlines()
    assert (
        code == 2
        and len(err) == 1
        and err[0].startswith("passcheck: error: ")
        and "unknown environment id 'no-such-env'" in err[0]
    )
    assert not (tmp_path / "h").exists()


def test_bisect_command_searches_the_tool_the_finding_is_about(tmp_path):
    """Two environments whose onnx, onnxruntime and onnxscript all differ (the onnx-1.18 / onnx-1.23
    pins): an onnxscript pass's finding is bisected over onnxscript, an onnx pass's over onnx, an
    onnxruntime level's (and a form's runtime rejection) over onnxruntime."""
    specs = []
    for name, pins in (("old", "onnx==1.18.0\nonnxruntime==1.22.1\nonnxscript==0.3.2\n"), ("new", REPO_PINS)):
        (tmp_path / f"{name}.txt").write_text(pins)
        specs.append(load_spec(tmp_path / f"{name}.txt"))
    window = {"present": ["new"], "absent": ["old"]}
    expected = {
        "c:uncommon|onnxscript:optimize|parity|missed-optimization": "onnxscript --versions 0.3.2,0.7.2",
        "c:uncommon|onnx:infer-shapes|shape|wrong-shape": "onnx --versions 1.18.0,1.23.2",
        "c:uncommon|ort:basic|numeric|wrong-result": "onnxruntime --versions 1.22.1,1.32.0",
        "c:uncommon|input|runtime|rejected": "onnxruntime --versions 1.22.1,1.32.0",
    }
    for finding, tail in expected.items():
        assert bisect_command(specs, window, finding, []).endswith(f"--package {tail}"), finding


REPO_PINS = "onnx==1.23.2\nonnxruntime==1.32.0\nonnxscript==0.7.2\n"
