"""Issue 11 item 6: '?' (or unk__N) written for unknown dims on unrelated axes. By seed 000 each is
a symbol (kept as the default, with the convention named in the finding); --unknown-dim-param /
unknown_dim_param= makes matching names assert nothing."""

from __future__ import annotations

import onnx
from onnx import parser

import passcheck
from passcheck.api import check_model
from passcheck.cli import main

#: x is [N, 3]; y = Transpose(x) is [3, N]; the tool wrote '?' on both axes of y.
MODEL = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 3] x) => (float["?", "?"] y) { y = Transpose<perm=[1, 0]>(x) }"""


def _annotation_findings(report):
    return [f for c in report.cells for f in c.findings if f.kind == "annotation-violated"]


def test_default_keeps_seed_000_and_names_the_convention():
    found = _annotation_findings(check_model(parser.parse_model(MODEL), ["ort:disabled"], bind={"N": 4}))
    assert found and all("'?' is bound to several sizes: the tool uses it for unknown dims" in f.message for f in found)


def test_api_option_treats_matching_names_as_unknown():
    report = check_model(parser.parse_model(MODEL), ["ort:disabled"], bind={"N": 4}, unknown_dim_param=r"\?")
    assert _annotation_findings(report) == [] and report.exit_code == 0
    model = parser.parse_model(MODEL)
    values = {"x": __import__("numpy").zeros((4, 3), "float32"), "y": __import__("numpy").zeros((3, 4), "float32")}
    assert not passcheck.check_annotations(model, values).ok
    assert passcheck.check_annotations(model, values, unknown_dim_param=r"\?").ok


def test_only_matching_names_change():
    """A real symbol stays a symbol: y = Transpose(x[N, 5]) is [5, N], annotated [N, "?"]: N is
    still violated on axis 0 with the option, and '?' on axis 1 asserts nothing."""
    m = parser.parse_model(
        MODEL.replace('float["?", "?"] y', 'float[N, "?"] y').replace("float[N, 3] x", "float[N, 5] x")
    )
    found = _annotation_findings(check_model(m, ["ort:disabled"], bind={"N": 4}, unknown_dim_param=r"\?"))
    assert found and all("axis 0 annotated 'N'" in f.message and "'?'" not in f.message for f in found)


def test_check_cli_flag(tmp_path, capsys):
    path = tmp_path / "m.onnx"
    onnx.save(parser.parse_model(MODEL), path)
    assert main(["check", str(path), "--pass", "ort:disabled", "--bind", "N=4", "--no-isolation", "-q"]) == 1
    assert "the tool uses it for unknown dims" in capsys.readouterr().out
    assert (
        main(
            [
                "check",
                str(path),
                "--pass",
                "ort:disabled",
                "--bind",
                "N=4",
                "--no-isolation",
                "-q",
                "--unknown-dim-param",
                r"\?",
            ]
        )
        == 0
    )
