"""``passcheck hunt --env A --env B`` on neighbours (:mod:`passcheck.hunt.env_vary`): a neighbour is built
here and judged with its base in each pinned environment, its signature gets a version window; a
neighbour an environment cannot run is ``unavailable`` there, never a finding.

The environments are the ``hunt --env`` tests' (``envs/``: onnxruntime 1.31.1 and 1.32.0 on the onnx 1.23
line) and the matrix tests' (``ci/envs`` onnx 1.18 and 1.23), whose wheels are already in uv's cache.
"""

import json
from pathlib import Path

import pytest

from passcheck.cli import main
from passcheck.hunt import variation

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PLANTED = HERE / "planted_versions.py"
OLD, NEW = HERE / "envs" / "hunt-ort-1.31.1.txt", HERE / "envs" / "hunt-ort-1.32.0.txt"
PASS = "planted:ort-1.32-drop-float16"


def _hunt(tmp_path, case: str, envs, pass_id: str = PASS, seed: int = 0, kinds=()) -> dict:
    out = tmp_path / "hunt"
    args = ["hunt", *[a for e in envs for a in ("--env", str(e))], "--cases-from", str(PLANTED), "--pass", pass_id]
    args += ["--case", case, "--no-generated", "--no-coverage", "--budget", "80items", "--seed", str(seed)]
    args += [a for k in kinds for a in ("--vary-kind", k)]
    main([*args, "--out", str(out), "--source", str(REPO), "--progress", "none"])
    return json.loads((out / "hunt-state.json").read_text())


@pytest.mark.matrix  # two pinned uv environments (hard-linked from uv's cache)
def test_a_neighbour_finding_gets_the_window_of_the_environments_that_show_it(tmp_path):
    state = _hunt(tmp_path, "attributes/leakyrelu-alpha", [OLD, NEW])
    neighbours = [i for i in state["items"] if variation.is_variation(i["form"])]  # not a rewrite of a neighbour
    assert neighbours, "the hunt tried no neighbour"
    for item in neighbours:  # each judged in both environments, from the bytes built here once
        assert {e: v["status"] for e, v in item["envs"].items()} == {
            "hunt-ort-1.31.1": "judged",
            "hunt-ort-1.32.0": "judged",
        }, item
        assert item["envs"]["hunt-ort-1.31.1"]["signatures"] == [], item
        assert len(item["sha256"]["neighbour"]) == 64
    hit = [i for i in neighbours if i["signatures"]]
    assert hit and {i["form"] for i in hit} == {"vary:elem-float16@graph"}, hit
    sigs = {k: v for k, v in state["signatures"].items() if v.get("variation")}  # the neighbours' own
    assert list(sigs) == hit[0]["signatures"], state["signatures"]
    for other in state["signatures"].values():  # rewrites of a neighbour (.env_compose): the same window
        assert other.get("variation") or other["window"] == {
            "present": ["hunt-ort-1.32.0"],
            "absent": ["hunt-ort-1.31.1"],
        }
    rec = next(iter(sigs.values()))
    assert rec["signature"]["rewrite"] == "vary:elem-float16" and rec["signature"]["kind"] == "invalid-model"
    assert rec["window"] == {"present": ["hunt-ort-1.32.0"], "absent": ["hunt-ort-1.31.1"]}
    assert rec["variation"] == "vary:elem-float16@graph" and Path(rec["case_module"]).is_file()
    assert "--package onnxruntime --versions 1.31.1,1.32.0" in rec["bisect"]


@pytest.mark.matrix  # the matrix tests' onnx 1.18 and onnx 1.23 environments (tests/matrix/conftest.py)
def test_a_neighbour_an_old_onnxruntime_cannot_run_is_unavailable_there_not_a_finding(tmp_path):
    # ConvInteger's weight as int8 (the schema's T2 allows it): onnxruntime 1.22.1 has no such kernel
    # and rejects the run, 1.32.0 runs it; the base (uint8 weight) runs in both
    envs = [REPO / "ci" / "envs" / "onnx-1.18.txt", REPO / "ci" / "envs" / "onnx-1.23.txt"]
    # the element-type neighbours alone (--vary-kind): among every kind, a seed's 80 items drew elem-int8@qw or not
    # as kinds were added (the pair kinds, then the integer-constant kinds)
    state = _hunt(
        tmp_path, "pattern-onnxscript/convinteger-same-upper", envs, "onnx:infer-shapes-strict", kinds=["elem-*"]
    )
    item = next(i for i in state["items"] if i["form"] == "vary:elem-int8@qw")
    old, new = item["envs"]["onnx-1.18"], item["envs"]["onnx-1.23"]
    assert old["status"] == "unavailable" and "onnxruntime cannot run" in old["reason"], item
    assert "signatures" not in old and new["status"] == "judged", item
    assert item["status"] == "done" and item["signatures"] == [], item
    for rec in state["signatures"].values():  # no window counts it, present or absent
        assert rec["found_on"]["form"] != "vary:elem-int8@qw", rec


@pytest.mark.matrix  # the matrix tests' onnx 1.18 and onnx 1.23 environments
def test_an_environment_wording_the_same_failure_otherwise_is_not_absent_from_the_window(tmp_path):
    # Reshape of an empty tensor after ort:extended fails to run in both environments: onnxruntime 1.22.1
    # reports RUNTIME_EXCEPTION, 1.32.0 FAIL; the two error classes are two signatures, neither absent anywhere
    envs = [REPO / "ci" / "envs" / "onnx-1.18.txt", REPO / "ci" / "envs" / "onnx-1.23.txt"]
    # the binding kinds alone (--vary-kind): the hunt is over in 4 items, vary:bind-zero@N the first
    state = _hunt(tmp_path, "hunt-env/reshape-flatten-common", envs, "ort:extended", kinds=["bind-*"])
    item = next(i for i in state["items"] if i["form"] == "vary:bind-zero@N")
    assert {e: v["status"] for e, v in item["envs"].items()} == {"onnx-1.18": "judged", "onnx-1.23": "judged"}
    keys = item["signatures"]
    assert len(keys) == 2 and {len(item["envs"][e]["signatures"]) for e in item["envs"]} == {1}, item
    for key in keys:
        window = state["signatures"][key]["window"]
        assert len(window["present"]) == 1 and window["absent"] == [], (key, window)


@pytest.mark.matrix  # the matrix tests' onnx 1.18 and onnx 1.23 environments
def test_a_neighbour_no_environment_runs_is_an_invalid_variation(tmp_path):
    # Gather's axis moved to 0: x is [N, 3] (N = 2 in the first run) and the indices hold 2, out of range
    # on axis 0; every onnxruntime rejects the run (the local gate's rule: it runs nowhere, no valid form)
    envs = [REPO / "ci" / "envs" / "onnx-1.18.txt", REPO / "ci" / "envs" / "onnx-1.23.txt"]
    # the attribute kinds alone (--vary-kind): the hunt is over in 3 items, vary:attr-axis@n0_Gather=0 the first
    state = _hunt(tmp_path, "axes/gather-negative", envs, "onnx:infer-shapes", seed=1, kinds=["attr-*"])
    item = next(i for i in state["items"] if i["form"] == "vary:attr-axis@n0_Gather=0")
    assert {v["status"] for v in item["envs"].values()} == {"unavailable"}, item
    assert item["status"] == "invalid-variation" and item["signatures"] == [], item
