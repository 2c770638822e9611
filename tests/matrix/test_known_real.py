"""The shipped workflow's steps on a small real matrix (onnx 1.18 and 1.23, two cases): shards
with --exit-zero, then merge with the shipped baseline ci/known.json → exit 0 on today's pins,
exit 1 when a new finding is planted; --write-baseline records where each finding occurs."""

import json
from pathlib import Path

import pytest

from passcheck.cli import main

pytestmark = pytest.mark.matrix

KNOWN = Path(__file__).resolve().parents[2] / "ci" / "known.json"
PLANTED = Path(__file__).with_name("planted_passes.py")


def merge(dirs, out, *extra) -> int:
    return main(["merge", *dirs, "--out", str(out), "-q", *extra])


@pytest.fixture
def today(today_shards):
    """The shards of the small real matrix (tests/matrix/conftest.py: built once per run)."""
    return today_shards


def test_shipped_baseline_is_green_today(today, tmp_path):
    assert merge(today, tmp_path / "plain") == 1  # there are findings: the baseline is what makes it green
    assert merge(today, tmp_path / "known", "--baseline", str(KNOWN)) == 0
    doc = json.loads((tmp_path / "known" / "report.json").read_text())
    entries = {e["id"]: e for e in doc["matrix"]["baseline"]["entries"]}
    strict = entries["constant/pad-pads-opset17:value-ints|onnx:infer-shapes-strict|acceptance|rejected"]
    assert strict["occurs"] == ["onnx-1.18"] and strict["fixed"] == []  # onnx 1.23 is not among its envs
    assert "onnx-1.23" not in (strict["envs"] or [])


def test_written_baseline_is_per_environment(today, tmp_path):
    assert merge(today, tmp_path / "m", "--write-baseline", str(tmp_path / "k.json")) == 1
    known = {e["id"]: e.get("envs") for e in json.loads((tmp_path / "k.json").read_text())["known"]}
    assert known["constant/pad-pads-opset17:value-ints|onnx:infer-shapes-strict|acceptance|rejected"] == ["onnx-1.18"]
    assert known["optional-input/conv-bn:empty-name|ort:basic|parity|missed-optimization"] is None  # both envs
    assert merge(today, tmp_path / "again", "--baseline", str(tmp_path / "k.json")) == 0


def test_a_planted_finding_turns_the_merge_red(today, matrix_shards, tmp_path, capfd):
    planted = matrix_shards(tmp_path, "--cases-from", str(PLANTED), "--pass", "planted:drop-last-node")
    capfd.readouterr()
    assert merge(planted, tmp_path / "m", "--baseline", str(KNOWN)) == 1
    out = capfd.readouterr().out
    assert "planted:drop-last-node" in out and " 0 unexpected findings" not in out
    assert merge([today[0], planted[1]], tmp_path / "mixed", "--baseline", str(KNOWN)) == 2
    assert "mismatched plans" in capfd.readouterr().err
