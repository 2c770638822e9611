"""Exporter validation with skl2onnx (runs in CI): the exporter oracle on a real export, the
planted exporter bugs it must catch, and the check-export CLI."""

from __future__ import annotations

import importlib.util
import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from passcheck.exporters import check_export, planted
from tests._inproc import cli

#: found, not imported: collection on a worker that runs none of these tests pays no scikit-learn import (~3 s)
pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("skl2onnx") is None,
    reason="skl2onnx is not installed: pip install '.[test]' (or 'passcheck[sklearn]')",
)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "exporter_validation" / "sklearn_pipeline.py"


def _example():
    ns = runpy.run_path(str(EXAMPLE))
    return ns["model"], ns["example_inputs"]


def _cli(*args):
    """``passcheck ARGS`` through ``python -m passcheck``: the console front door, kept for one run (the others
    call :func:`tests._inproc.cli`)."""
    return subprocess.run(
        [sys.executable, "-m", "passcheck", *map(str, args)], capture_output=True, text=True, timeout=900
    )


def _export_findings(report):
    (cell,) = [c for c in report.cells if c.pass_id == "export"]
    return cell.findings


def test_real_export_matches_sklearn_at_every_binding_and_carries_ml_ops():
    model, x = _example()
    report = check_export(model, x, exporter="sklearn", passes=["onnx:infer-shapes"], mutations=False)
    assert report.bindings == [{"batch": 8}, {"batch": 1}, {"batch": 9}, {"batch": 17}]
    assert {n.domain for n in report.model.graph.node} >= {"ai.onnx.ml"}
    assert _export_findings(report) == []
    assert report.exit_code == 0, [f.headline() for f in report.findings]
    assert {c.pass_id for c in report.cells} == {"export", "input", "onnx:infer-shapes"}


def test_planted_fixed_batch_annotation_is_caught_by_the_exporter_oracle():
    model, x = _example()
    found = _export_findings(
        check_export(
            model, x, exporter="sklearn", passes=["onnx:infer-shapes"], mutations=False, corrupt=planted.fixed_batch
        )
    )
    assert found and {(f.oracle, f.kind) for f in found} == {("exporter", "annotation-violated")}
    assert {f.details["binding"]["batch"] for f in found} == {8, 9, 17}  # batch=1 matches the planted size
    assert "annotated 1, run produced 9" in " ".join(f.message for f in found)


def test_planted_dropped_bias_is_caught_by_the_exporter_oracle():
    model, x = _example()
    found = _export_findings(
        check_export(
            model, x, exporter="sklearn", passes=["onnx:infer-shapes"], mutations=False, corrupt=planted.drop_bias
        )
    )
    assert len(found) == 4 and {(f.oracle, f.kind) for f in found} == {("exporter", "wrong-result")}
    assert all("differs from scikit-learn" in f.message and f.details["max_abs"] > 0.1 for f in found)


def test_an_exporter_failure_is_a_finding_not_a_crash():
    class Unknown:  # has fit/predict, but skl2onnx has no converter for it
        def fit(self, x, y=None):
            return self

        def predict(self, x):
            return x[:, 0]

    _model, x = _example()
    report = check_export(Unknown(), x, exporter="sklearn")
    (f,) = report.findings
    assert (f.oracle, f.kind, f.pass_id) == ("exporter", "rejected", "export") and "sklearn cannot export" in f.message
    assert report.exit_code == 1


def test_check_export_cli_runs_passes_with_mutations_and_reports_json(tmp_path):
    out = tmp_path / "r.json"
    p = _cli("check-export", EXAMPLE, "--exporter", "sklearn", "--pass", "ort:basic", "--json", out, "-q")
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-2000:]
    assert "judged against the source at batch=8; batch=1; batch=9; batch=17" in p.stdout
    cells = json.loads(out.read_text())["results"]
    assert {c["pass_id"] for c in cells} == {"export", "input", "ort:basic"}
    assert len({c["form"] for c in cells}) > 3  # the export and its verified rewrites


def test_check_export_cli_catches_a_planted_bug_with_a_reproduce_line(tmp_path):
    f = tmp_path / "bad_export.py"
    f.write_text(
        f"import runpy\nfrom passcheck.exporters.planted import drop_bias as corrupt\n"
        f"ns = runpy.run_path({str(EXAMPLE)!r})\nmodel, example_inputs = ns['model'], ns['example_inputs']\n"
    )
    p = cli("check-export", f, "--pass", "onnx:infer-shapes", "--no-mutations", "-q")
    assert p.returncode == 1, p.stderr
    assert "exporter: [wrong-result] output 'variable' at batch=8 differs from scikit-learn" in p.stdout
    assert f"reproduce: passcheck check-export {f} --exporter sklearn --pass export" in p.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("raise ValueError('boom')\n", "running the file failed: ValueError: boom"),
        ("model = 1\n", "defines no `example_inputs`"),
    ],
)
def test_check_export_cli_bad_file_is_one_line_exit_2(tmp_path, content, message):
    f = tmp_path / "m.py"
    if content is not None:
        f.write_text(content)
    p = cli("check-export", f, "--exporter", "sklearn")
    assert p.returncode == 2 and message in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "Traceback" not in p.stderr


def test_check_export_cli_bad_dynamic_spec_is_exit_2(tmp_path):
    p = cli("check-export", EXAMPLE, "--dynamic", "batch")
    assert p.returncode == 2 and "expected INPUT:AXIS=SYM" in p.stderr


@pytest.mark.skipif(__import__("importlib").util.find_spec("torch") is not None, reason="torch is installed here")
def test_check_export_cli_points_torch_files_to_the_torch_env():
    p = cli("check-export", ROOT / "examples" / "exporter_validation" / "torch_mlp.py")
    assert p.returncode == 2 and "No module named 'torch'; run check-export with the torch env's passcheck" in p.stderr
