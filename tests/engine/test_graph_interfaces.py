"""Graph interfaces (issue 18.5): sequence- and optional-typed graph outputs, an output type with
no shape field, and ``validity-disagreement`` — the onnx checker rejects a form onnxruntime runs.

A tensor graph output without a ``shape`` field is what the onnx checker refuses ("Field 'shape'
of 'type' is required but missing") while onnxruntime runs it: the planted form here.

The commands run through the CLI's entry in this process (:mod:`tests._inproc`).
"""

from __future__ import annotations

import json

import onnx

from tests._inproc import cli

PASSES = ["--pass", "ort:basic", "--pass", "onnx:infer-shapes"]


def _cli(*argv):
    return cli(*argv, "-q", "--progress", "none")


def test_graph_interface_cases_run_and_only_the_shapeless_output_disagrees(tmp_path):
    out = tmp_path / "r.json"
    p = _cli("run", "--case", "graph-interface/*", *PASSES, "--json", out)
    assert p.returncode == 1, p.stderr
    cells = json.loads(out.read_text())["results"]
    assert {c["case"] for c in cells} == {
        "graph-interface/sequence-output",
        "graph-interface/optional-output",
        "graph-interface/output-without-shape",
    }
    inputs = {(c["case"], c["form"]): [f["kind"] for f in c["findings"]] for c in cells if c["pass_id"] == "input"}
    assert inputs.pop(("graph-interface/output-without-shape", "no-shape")) == ["validity-disagreement"]
    assert all(kinds == [] for kinds in inputs.values()), inputs
    # the passes did not make the output invalid: the form was already refused by the checker
    assert not [f for c in cells if c["pass_id"] != "input" for f in c["findings"] if f["oracle"] == "validity"]
    found = next(f for c in cells for f in c["findings"] if f["kind"] == "validity-disagreement")
    assert found["oracle"] == "validity" and "onnxruntime runs it" in found["message"]
    assert found["details"]["reference"] == "agrees with onnxruntime"


def _shapeless(path):
    m = onnx.parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[N,3] x) => (float[N,3] y) { r = Relu(x)\n y = Add(r, x) }'
    )
    m.graph.output[0].type.tensor_type.ClearField("shape")
    onnx.save(m, path)
    return path


def test_check_reports_a_checker_rejected_model_onnxruntime_runs_instead_of_refusing_it(tmp_path):
    out = tmp_path / "r.json"
    p = _cli("check", _shapeless(tmp_path / "m.onnx"), *PASSES, "--json", out)
    assert p.returncode == 1, p.stderr
    cells = json.loads(out.read_text())["results"]
    kinds = [(c["pass_id"], f["kind"]) for c in cells for f in c["findings"]]
    assert kinds == [("input", "validity-disagreement")]


def test_check_mutations_on_a_checker_rejected_model_checks_it_alone(tmp_path):
    p = _cli("check", _shapeless(tmp_path / "m.onnx"), *PASSES, "--mutations")
    assert p.returncode == 1, p.stderr
    assert "internal error" not in p.stderr and "Traceback" not in p.stderr


def test_check_still_refuses_a_model_neither_tool_accepts(tmp_path):
    m = onnx.parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 18]>\ng (float[N,3] x) => (float[N,3] y) { y = Add(x, nowhere) }'
    )
    onnx.save(m, tmp_path / "bad.onnx")
    p = _cli("check", tmp_path / "bad.onnx", *PASSES)
    assert p.returncode == 2
    assert "onnxruntime cannot load it either" in p.stderr and "Traceback" not in p.stderr
