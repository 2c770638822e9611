"""``passcheck list --passes`` shows each pass's capabilities and what it needs installed."""

from __future__ import annotations

import json

from passcheck.cli import main
from passcheck.passes.command import resolve_command


def test_list_passes_says_which_passes_need_an_extra_install(capsys):
    assert main(["list", "--passes", "--json"]) == 0
    rows = {r["id"]: r for r in json.loads(capsys.readouterr().out)}
    for name in ("onnxsim", "onnxslim"):
        row = rows[f"cmd+fold:{name}"]
        assert row["install"] == ("" if resolve_command(name) else f"pip install {name}"), row
        assert row["folds_constants"] and row["optimizes"]
    assert rows["cmd+fold:onnxsim"]["needs_feeds"] and not rows["cmd+fold:onnxslim"]["needs_feeds"]
    assert rows["ort:symbolic-shape-infer"]["opsets"] == "7.." and rows["ort:basic"]["opsets"] == ""
    for pid in (
        "onnxscript:rewrite",
        "onnxscript:optimize-for-ort",
        "onnx:convert-opset-down",
        "onnx:convert-opset-up",
    ):
        assert rows[pid]["install"] == "", rows[pid]  # passcheck's own dependencies
    assert rows["onnxscript:optimize-for-ort"]["folds_constants"] and not rows["onnxscript:rewrite"]["folds_constants"]
    assert not rows["onnx:infer-shapes"]["optimizes"] and rows["ort:all"]["optimizes"]


def test_a_recipe_whose_tool_is_missing_says_what_to_install(capsys):
    import pytest

    if resolve_command("onnxslim"):
        pytest.skip("onnxslim is installed here")
    assert main(["run", "--case", "optional-input/conv-relu", "--pass", "cmd+fold:onnxslim"]) == 2
    err = capsys.readouterr().err
    assert "cmd+fold:onnxslim" in err and "pip install onnxslim" in err and "Traceback" not in err
