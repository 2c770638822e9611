"""Shared by the planted-pass tests: run ``passcheck check MODEL --mutations`` (the CLI's own entry, default
rewrite selection, no ``--form``) with a planted function pass and return the forms it was found on."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import onnx

from passcheck.cli import main
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass


def forms_with_findings(tmp_path: Path, build: Callable[[], onnx.ModelProto], fn: Callable, pid: str) -> set[str]:
    """The forms on which pass ``pid`` (``fn`` as a function pass) has a finding; asserts that ``check`` exits 1
    and that the model as written (``common``) is not among them."""
    path, report = tmp_path / "m.onnx", tmp_path / "r.json"
    onnx.save(build(), path)
    register_pass(FunctionAdapter(pid, fn))
    try:
        code = main(["check", str(path), "--mutations", "--pass", pid, "--json", str(report), "-q"])
    finally:
        unregister_pass(pid)
    assert code == 1
    results = json.loads(report.read_text())["results"]
    found = {c["form"] for c in results for f in c["findings"] if f["pass_id"] == pid}
    assert "common" not in found  # right on the model as written
    return found
