"""``passcheck generate``: stats per op, JSON, and one-line usage errors."""

from __future__ import annotations

import json

from passcheck.cli import main


def test_stats_per_op_and_json(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path / "cache"))
    assert main(["generate", "--stats", "--op", "Relu", "--json", str(tmp_path / "s.json")]) == 0
    out = capsys.readouterr().out
    assert "Relu" in out and "generated cases over 1 operators" in out
    doc = json.loads((tmp_path / "s.json").read_text())
    assert doc["cases"] == doc["stats"]["built"]["Relu"] > 5
    assert doc["stats"]["reference_only"]["Relu"] > 0  # Relu-1 (opset 1-5): onnxruntime has no kernel
    assert main(["generate", "--stats", "--examples", "--op", "Relu"]) == 0
    assert "no kernel" in capsys.readouterr().out  # Relu-13 bfloat16: the first dropped pair, named


def test_unknown_op_is_a_usage_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path / "cache"))
    assert main(["generate", "--op", "NoSuchOp"]) == 2
    err = capsys.readouterr().err
    assert "NoSuchOp" in err and "Traceback" not in err
