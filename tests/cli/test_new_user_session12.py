"""What a new user broke (session 12): the report of an interrupted run re-rendered as if complete."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from tests._inproc import cli

PASSCHECK = str(Path(sys.executable).with_name("passcheck"))


@pytest.fixture(scope="module")
def partial_report(tmp_path_factory) -> Path:
    """A clean ``check`` report of a Relu model (real onnxruntime), marked ``"partial": true`` as the CLI
    writes it when Ctrl-C stops a run: the cells it holds are all ``ok``."""
    d = tmp_path_factory.mktemp("partial")
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]), str(d / "m.onnx"))
    run = subprocess.run(
        [PASSCHECK, "check", "m.onnx", "--pass", "ort:disabled", "--json", "r.json", "-q"],
        capture_output=True,
        text=True,
        cwd=d,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr
    doc = json.loads((d / "r.json").read_text())
    assert doc["summary"]["verdicts"] == {"ok": 2}
    (d / "r.json").write_text(json.dumps({**doc, "partial": True}))
    return d / "r.json"


def _report(path: Path, *args: str) -> subprocess.CompletedProcess:
    """``passcheck report PATH ARGS`` in this process (the gate's exit 1 is also checked through the console
    script, in :func:`test_a_partial_report_fails_on_findings_and_says_it_is_partial`)."""
    return cli("report", path, *args)


def test_a_partial_report_fails_on_findings_and_says_it_is_partial(partial_report):
    # was: exit 0 and "2 cells: 0 unexpected findings … 0 cells unchecked" for a run stopped early
    gate = subprocess.run(
        [PASSCHECK, "report", str(partial_report), "--fail-on-findings"], capture_output=True, text=True, timeout=300
    )
    assert gate.returncode == 1, gate.stderr
    assert "interrupted" in gate.stderr and "PARTIAL" in gate.stdout
    shown = _report(partial_report)
    assert shown.returncode == 0 and "interrupted" in shown.stderr


@pytest.mark.parametrize("fmt", ["markdown", "findings"])
def test_a_partial_report_rendered_as_markdown_says_so(partial_report, fmt):
    out = _report(partial_report, "--format", fmt)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("> **Partial report**"), out.stdout[:200]


def test_a_partial_report_re_rendered_as_json_stays_partial(partial_report):
    out = _report(partial_report, "--format", "json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["partial"] is True


def _transpose_opset6(path: Path) -> Path:
    g = helper.make_graph(
        [helper.make_node("Transpose", ["x"], ["y"], perm=[1, 0])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2])],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 6)]), str(path))
    return path


@pytest.mark.parametrize(
    "command", [["check", "--pass", "ort:disabled", "--mutations", "-q"], ["mutate", "--out", "m"]]
)
def test_a_named_form_that_does_not_apply_says_where_it_applies(tmp_path, command):
    # was: "no rewrite applies to this model" and nothing on why; node-in-if-const needs opset >= 9
    model = _transpose_opset6(tmp_path / "t.onnx")
    run = cli(command[0], model, *command[1:], "--form", "node-in-if-const", cwd=tmp_path)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out
    assert "no rewrite applies to this model" in out
    assert "node-in-if-const applies to: main-graph nodes" in out and "opset >= 9" in out, out
    assert "this model imports opset 6" in out, out


def test_list_rewrites_names_every_form_id_the_mutations_take():
    # was: no way to list the rewrite ids but a --form typo's error, cut at twelve ids and "…"
    from passcheck.mutations.registry import REWRITES

    out = cli("list", "--rewrites", "--json")
    assert out.returncode == 0, out.stderr
    assert [r["id"] for r in json.loads(out.stdout)] == list(REWRITES)
    piped = subprocess.run([PASSCHECK, "list", "--rewrites"], capture_output=True, text=True, timeout=300)
    ids = {line.split("\t")[0] for line in piped.stdout.splitlines()}
    assert {"transpose-conjugate", "node-in-if-const", "split-to-sequence"} <= ids, piped.stdout[:300]
