"""``passcheck mutate`` and ``passcheck compare`` end to end, through the CLI entry point."""

from __future__ import annotations

import json

import onnx
import pytest

from passcheck.cases.builders import parse
from passcheck.cli import main
from passcheck.mutations import REWRITES

TWO_NODES = """g (float[N, 3] x) => (float[N, 3] y) { a = Softmax(x)  y = Relu(a) }"""
BARE = """g (double[N, 3] x) => (double[N, 3] y) { y = Relu(x) }"""  # double: no float64-compute form


@pytest.fixture
def two_nodes(tmp_path):
    path = tmp_path / "m.onnx"
    onnx.save(parse(TWO_NODES, opset=13), str(path))
    return path


def test_mutate_writes_verified_mutants_and_manifest(two_nodes, tmp_path, capsys):
    out = tmp_path / "out"
    assert (
        main(["mutate", str(two_nodes), "--out", str(out), "--form", "explicit-defaults", "--form", "identity-edges"])
        == 0
    )
    manifest = json.loads((out / "manifest.json").read_text())
    assert [(e["form"], e["nodes"], e["count"], e["verified_equivalent"]) for e in manifest["mutants"]] == [
        ("explicit-defaults", ["#0:Softmax"], 1, True),
        ("identity-edges", ["a"], 1, True),
    ]  # identity-edges: the values rerouted
    mutant = onnx.load(str(out / "m.explicit-defaults.onnx"))
    assert [a.name for a in mutant.graph.node[0].attribute] == ["axis"]
    assert "2 mutants, all verified equivalent" in capsys.readouterr().out


def test_mutate_nothing_applies(tmp_path, capsys):
    path = tmp_path / "bare.onnx"
    onnx.save(parse(BARE, opset=13), str(path))
    # the IR-level freedoms (names, doc strings, metadata, …) apply to every model: ask for one that does not
    assert main(["mutate", str(path), "--out", str(tmp_path / "out"), "--form", "gemm-to-matmul-add"]) == 0
    assert "no rewrite applies" in capsys.readouterr().out
    assert not (tmp_path / "out").exists()


def test_mutate_rejects_invalid_input_and_unknown_form(two_nodes, tmp_path, capsys):
    bad = parse(TWO_NODES, opset=13)
    bad.graph.node[1].input[0] = "nowhere"
    path = tmp_path / "bad.onnx"
    onnx.save(bad, str(path))
    assert main(["mutate", str(path), "--out", str(tmp_path / "o")]) == 2
    assert "fails the ONNX checker" in capsys.readouterr().err
    assert main(["mutate", str(two_nodes), "--out", str(tmp_path / "o"), "--form", "explicit-default"]) == 2
    assert "unknown form id 'explicit-default'" in capsys.readouterr().err


def test_compare_equivalent_pair(two_nodes, tmp_path, capsys):
    b, _ = REWRITES["explicit-defaults"].apply(onnx.load(str(two_nodes)))
    b_path = tmp_path / "b.onnx"
    onnx.save(b, str(b_path))
    code = main(["compare", str(two_nodes), str(b_path), "--pass", "ort:basic", "--pass", "onnx:infer-shapes", "-q"])
    out = capsys.readouterr().out
    assert code == 0 and "0 unexpected findings" in out


def test_compare_finds_the_conv_bn_fusion_gap_on_resnet50(tmp_path):
    """The seed 003 §1 gap on a real model: ORT fuses Conv+BatchNormalization only when the bias is omitted."""
    from pathlib import Path

    src = Path(onnx.__file__).parent / "backend/test/data/light/light_resnet50.onnx"
    out = tmp_path / "mut"
    assert main(["mutate", str(src), "--out", str(out), "--form", "empty-optional-input"]) == 0
    report = tmp_path / "r.json"
    code = main(
        [
            "compare",
            str(src),
            str(out / "light_resnet50.empty-optional-input.onnx"),
            "--pass",
            "ort:basic",
            "-q",
            "--json",
            str(report),
        ]
    )
    assert code == 1
    cells = json.loads(report.read_text())["results"]
    parity = [
        f for c in cells for f in c["findings"] if f["oracle"] == "parity" and "BatchNormalization" in f["message"]
    ]
    b = "light_resnet50.empty-optional-input"  # each form is named by its file stem
    assert [(f["form"], f["details"]["nodes_after"]) for f in parity] == [(b, {"light_resnet50": 123, b: 176})]


def test_compare_refuses_different_computations(two_nodes, tmp_path, capsys):
    other = parse(TWO_NODES.replace("Relu", "Sigmoid"), opset=13)
    path = tmp_path / "other.onnx"
    onnx.save(other, str(path))
    assert main(["compare", str(two_nodes), str(path), "--pass", "ort:basic"]) == 2
    assert "does not compute what" in capsys.readouterr().err
