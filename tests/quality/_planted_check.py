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
    return forms_with_findings_of(tmp_path, build, {pid: fn})[pid]


def forms_with_findings_of(
    tmp_path: Path, build: Callable[[], onnx.ModelProto], passes: dict[str, Callable], max_sites: str | None = None
) -> dict[str, set[str]]:
    """:func:`forms_with_findings` of several planted passes on one model, in one ``check`` (a cell is one form
    under one pass: the passes' verdicts are their own): pass id → forms; asserts the same of each pass.
    ``max_sites``: ``check``'s ``--max-sites`` (its default when None; ``"0"``: each rewrite at all its sites
    at once only)."""
    path, report = tmp_path / "m.onnx", tmp_path / "r.json"
    onnx.save(build(), path)
    for pid, fn in passes.items():
        register_pass(FunctionAdapter(pid, fn))
    try:
        argv = [a for pid in passes for a in ("--pass", pid)]
        argv += ["--max-sites", max_sites] if max_sites is not None else []
        code = main(["check", str(path), "--mutations", *argv, "--json", str(report), "-q"])
    finally:
        for pid in passes:
            unregister_pass(pid)
    assert code == 1
    results = json.loads(report.read_text())["results"]
    found = {pid: {c["form"] for c in results for f in c["findings"] if f["pass_id"] == pid} for pid in passes}
    for pid, forms in found.items():
        assert forms and "common" not in forms, (pid, forms)  # right on the model as written
    return found
