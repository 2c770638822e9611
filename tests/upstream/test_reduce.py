"""``passcheck reduce``: delta debugging over nodes keeps the finding, on real onnxruntime sessions."""

from __future__ import annotations

import json
import subprocess
import sys

import onnx
import pytest
from onnx import helper

from passcheck.cli import main
from passcheck.reduce.ddmin import ddmin


def test_ddmin_finds_a_one_minimal_subset():
    tested = []

    def holds(xs):
        tested.append(xs)
        return {3, 7} <= set(xs)

    assert ddmin(list(range(20)), holds, deadline=float("inf")) == ([3, 7], True)


def test_ddmin_stops_at_the_deadline_with_what_it_has():
    assert ddmin(list(range(8)), lambda xs: True, deadline=float("-inf")) == (list(range(8)), False)


@pytest.fixture(scope="module")
def conv_bn_report(tmp_path_factory):
    from passcheck.cases._registry import load_builtin

    d = tmp_path_factory.mktemp("reduce")
    case = load_builtin().get("optional-input/conv-bn")
    for form, stem in (("common", "a"), ("empty-name", "b")):
        m = case.build(form)
        relu = helper.make_node("Relu", ["y"], ["z"], name="relu")  # a node the finding does not need
        m.graph.node.append(relu)
        m.graph.output[0].CopyFrom(helper.make_tensor_value_info("z", 1, ["N", 4, 8, 8]))
        onnx.save(m, str(d / f"{stem}.onnx"))
    assert main(["compare", str(d / "a.onnx"), str(d / "b.onnx"), "--pass", "ort:basic", "--json", str(d / "r.json"), "-q"]) == 1
    return d


def test_reduce_compare_pair_to_conv_bn_and_case_module_reproduces(conv_bn_report, capsys):
    d = conv_bn_report
    assert main(["reduce", str(d / "r.json"), "--out", str(d / "out")]) == 0
    assert "3 → 2 nodes (Conv, BatchNormalization); 1-minimal" in capsys.readouterr().out
    for f in ("common.onnx", "uncommon.onnx"):
        m = onnx.load(str(d / "out" / f))
        onnx.checker.check_model(m, full_check=True)
        assert [n.op_type for n in m.graph.node] == ["Conv", "BatchNormalization"]
    assert json.loads((d / "out" / "reduce-state.json").read_text())["finished"] is True
    again = d / "again.json"
    assert main(["run", "--cases-from", str(d / "out" / "reduced_a_b_ort_basic.py"), "--case", "reduced/a-b-ort-basic", "--pass", "ort:basic",
                 "--json", str(again), "-q"]) == 1
    assert "ort:basic removed BatchNormalization 1→0 in 'common' but 1→1 in 'b'" in capsys.readouterr().out
    # a fresh process finds the reduced case through the --cases-from the finding records
    run = subprocess.run([sys.executable, "-m", "passcheck", "attribute", str(again)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and "attributed to: ConvBNFusion" in run.stdout, run.stdout + run.stderr


def test_resume_starts_from_the_recorded_nodes_and_refuses_another_findings_state(conv_bn_report, capsys):
    d, out = conv_bn_report, conv_bn_report / "resumed"
    out.mkdir()
    fid = "model/a:b|ort:basic|parity|missed-optimization"
    (out / "reduce-state.json").write_text(json.dumps({"finding": fid, "keep": ["c", "y"], "finished": False}))
    assert main(["reduce", str(d / "r.json"), "--out", str(out), "--resume"]) == 0
    assert "3 → 2 nodes" in capsys.readouterr().out
    (out / "reduce-state.json").write_text(json.dumps({"finding": "other", "keep": [], "finished": False}))
    assert main(["reduce", str(d / "r.json"), "--out", str(out), "--resume"]) == 2
    assert "records finding 'other'" in capsys.readouterr().err


@pytest.mark.slow
def test_resnet50_mutant_reduces_to_at_most_three_nodes(resnet_report, tmp_path, capsys):
    assert main(["reduce", str(resnet_report[0]), "--finding", resnet_report[1], "--out", str(tmp_path / "out"), "--budget", "120"]) == 0
    m = onnx.load(str(tmp_path / "out" / "uncommon.onnx"))
    assert len(m.graph.node) <= 3 and {"Conv", "BatchNormalization"} <= {n.op_type for n in m.graph.node}
    assert main(["run", "--cases-from", str(tmp_path / "out" / "reduced_light_resnet50_empty_optional_input_ort_basic.py"),
                 "--case", "reduced/light_resnet50-empty-optional-input-ort-basic", "--pass", "ort:basic", "--json",
                 str(tmp_path / "again.json"), "-q"]) == 1
    assert main(["attribute", str(tmp_path / "again.json"), "--finding",
                 "reduced/light_resnet50-empty-optional-input-ort-basic:empty-optional-input|ort:basic|parity|missed-optimization"]) == 0
    assert "attributed to: ConvBNFusion" in capsys.readouterr().out


def test_reduce_runs_check_with_mutations_itself(tmp_path, capsys):
    from passcheck.cases._registry import load_builtin

    onnx.save(load_builtin().get("optional-input/conv-bn").build("common"), str(tmp_path / "m.onnx"))
    out = tmp_path / "out"
    assert main(["reduce", "--check", str(tmp_path / "m.onnx"), "--form", "empty-optional-input", "--pass", "ort:basic", "--out", str(out)]) == 0
    assert "2 → 2 nodes (Conv, BatchNormalization); 1-minimal" in capsys.readouterr().out
    assert (out / "report.json").is_file() and (out / "reduced_m_empty_optional_input_ort_basic.py").is_file()


def test_reduce_refuses_a_pass_option_with_a_report(conv_bn_report, tmp_path, capsys):
    assert main(["reduce", str(conv_bn_report / "r.json"), "--pass", "ort:basic", "--out", str(tmp_path / "o")]) == 2
    assert "--pass and --form go with --compare or --check" in capsys.readouterr().err
