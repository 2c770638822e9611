"""``passcheck attribute``: the onnxruntime transformer behind ort:* parity findings, on real sessions."""

from __future__ import annotations

import io
import json

import onnx
import pytest
from rich.console import Console

from passcheck.attribution import ort as attr_ort
from passcheck.attribution.ort import attribute_parity
from passcheck.cases._registry import load_builtin
from passcheck.cli import main
from passcheck.records import Finding
from passcheck.report import markdown, terminal
from passcheck.report.json_report import read_report
from passcheck.report.junit import write_junit
from tests._conv_bn_report import conv_bn_report

CASE = "optional-input/conv-bn"
ID = f"{CASE}:empty-name|ort:basic|parity|missed-optimization"


def in_process(fn, model, *args):
    return fn(model, *args)


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    return conv_bn_report(tmp_path_factory)


def test_attribute_names_conv_bn_fusion_and_every_renderer_shows_it(report, tmp_path, capsys):
    out = tmp_path / "attributed.json"
    assert main(["attribute", str(report), "--json", str(out)]) == 0
    assert f"{ID} | local: attributed to: ConvBNFusion" in capsys.readouterr().out
    cells, _ = read_report(out)
    (f,) = [f for c in cells for f in c.findings if f.id == ID]
    assert f.attribution == ["ConvBNFusion"]
    console = Console(file=io.StringIO(), width=300)
    terminal.render(cells, console)
    assert "attributed to: ConvBNFusion" in console.file.getvalue()
    assert "attributed to: ConvBNFusion" in markdown.render(cells)
    write_junit(tmp_path / "r.xml", cells)
    assert "attributed to: ConvBNFusion" in (tmp_path / "r.xml").read_text()
    assert "ConvBNFusion" in json.dumps(json.loads(out.read_text())["results"])


def test_attribute_that_gives_up_exits_1_and_says_why(report, tmp_path, capsys):
    """README, exit codes: 0 only when everything asked was done; a finding left unnamed is not."""
    assert main(["attribute", str(report), "--json", str(tmp_path / "a.json"), "--max-sessions", "1"]) == 1
    out, err = capsys.readouterr()
    assert f"{ID} | local: gave up after 1 sessions" in out and "1 of 1 findings not attributed" in err
    assert [f.attribution for c in read_report(tmp_path / "a.json")[0] for f in c.findings if f.id == ID] == [[]]


def test_table_without_the_transformer_gives_no_name_and_says_why(monkeypatch):
    case = load_builtin().get(CASE)
    monkeypatch.setattr(attr_ort, "candidates", lambda level: ("ConstantFolding", "NoSuchTransformer"))
    got = attribute_parity(case.build("common"), case.build("empty-name"), "basic", ["BatchNormalization"], in_process)
    assert got.names == [] and "not in its table" in got.note


def test_forms_optimized_alike_are_not_attributed():
    case = load_builtin().get(CASE)
    common = case.build("common")
    got = attribute_parity(common, common, "basic", ["BatchNormalization"], in_process)
    assert got.names == [] and got.note.startswith("not reproduced")


def test_session_cap_is_kept():
    case = load_builtin().get(CASE)
    got = attribute_parity(
        case.build("common"), case.build("empty-name"), "basic", ["BatchNormalization"], in_process, max_sessions=3
    )
    assert got.names == [] and got.sessions == 3 and "gave up" in got.note


def test_finding_json_without_or_with_unknown_fields_still_loads():
    old = {
        "kind": "rejected",
        "oracle": "acceptance",
        "case": "a/b",
        "form": "common",
        "pass_id": "ort:basic",
        "message": "m",
    }
    assert Finding.from_json(old).attribution == []
    assert Finding.from_json({**old, "attribution": ["X"], "future_field": 1}).attribution == ["X"]


def test_unknown_finding_id_is_an_input_error(report, capsys):
    assert main(["attribute", str(report), "--finding", "nope", "--json", "-"]) == 2
    assert "no finding 'nope'" in capsys.readouterr().err


@pytest.mark.slow
def test_resnet50_mutant_missing_conv_bn_fusion_is_attributed(resnet_report, tmp_path):
    path, fid = tmp_path / "attributed.json", resnet_report[1]
    assert main(["attribute", str(resnet_report[0]), "--finding", fid, "--json", str(path)]) == 0
    cells, _ = read_report(path)
    assert [f.attribution for c in cells for f in c.findings if f.id == fid] == [["ConvBNFusion"]]


def _reshape_pair(d):
    """y = Relu(Reshape(x, shape)): the shape an initializer (a) or a Concat of two (b)."""
    import numpy as np
    from onnx import helper, numpy_helper

    for name, computed in (("a", False), ("b", True)):
        inits = (
            [
                numpy_helper.from_array(np.array([2], np.int64), "s0"),
                numpy_helper.from_array(np.array([6], np.int64), "s1"),
            ]
            if computed
            else [numpy_helper.from_array(np.array([2, 6], np.int64), "shape")]
        )
        nodes = ([helper.make_node("Concat", ["s0", "s1"], ["shape"], name="cat", axis=0)] if computed else []) + [
            helper.make_node("Reshape", ["x", "shape"], ["r"], name="reshape"),
            helper.make_node("Relu", ["r"], ["y"], name="relu"),
        ]
        g = helper.make_graph(
            nodes,
            "g",
            [helper.make_tensor_value_info("x", 1, [3, 4])],
            [helper.make_tensor_value_info("y", 1, [None, None])],
            initializer=inits,
        )
        onnx.save(
            helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8), str(d / f"{name}.onnx")
        )


def test_shape_inference_precision_finding_names_the_node_where_typing_falls_behind(tmp_path, capsys):
    _reshape_pair(tmp_path)
    report = tmp_path / "r.json"
    assert (
        main(
            [
                "compare",
                str(tmp_path / "a.onnx"),
                str(tmp_path / "b.onnx"),
                "--pass",
                "onnx:infer-shapes",
                "--json",
                str(report),
                "-q",
            ]
        )
        == 1
    )
    assert main(["attribute", str(report)]) == 0
    cells, _ = read_report(report)
    assert [f.attribution for c in cells for f in c.findings] == [["Reshape node 'reshape' (output 'r')"]]


def test_onnxscript_missed_fusion_names_the_rewrite_rule(tmp_path, capsys):
    pytest.importorskip("onnxscript")
    report = tmp_path / "r.json"
    main(
        [
            "run",
            "--case",
            "optional-input/conv-bn-bias-control",
            "--pass",
            "onnxscript:optimize",
            "--json",
            str(report),
            "-q",
        ]
    )
    assert main(["attribute", str(report)]) == 0
    cells, _ = read_report(report)
    assert [f.attribution for c in cells for f in c.findings if f.oracle == "parity"] == [["FuseBatchNormIntoConv"]]


def test_a_segfault_of_the_optimizer_is_attributed_to_the_fusion_whose_disabling_avoids_it():
    """onnxruntime's extended level kills its process on LayerNormalization with an empty optional bias; the
    session is created once SkipLayerNormFusion alone is disabled (real sessions, each in the isolation worker)."""
    from passcheck.attribution.ort import attribute_failure
    from passcheck.passes.isolation import IsolatedExecutor

    case = load_builtin().get("optional-input/layernorm-bias")
    with IsolatedExecutor() as ex:
        got = attribute_failure(case.build("empty-name"), "extended", ex.call)
        assert got.names == ["SkipLayerNormFusion"], got
        healthy = attribute_failure(case.build("common"), "extended", ex.call)
    assert healthy.names == [] and healthy.note.startswith("not reproduced"), healthy
