"""``passcheck repro``: a standalone script that fails while the onnxruntime bug is present."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import onnx
import onnxruntime
import pytest

from passcheck.cases._registry import load_builtin
from passcheck.cli import main
from passcheck.records import Finding
from passcheck.repro.script import script
from passcheck.repro.source import model_source
from tests._bare_venv import bare_python
from tests._conv_bn_report import conv_bn_report

CASE = "optional-input/conv-bn"
ID = f"{CASE}:empty-name|ort:basic|parity|missed-optimization"
IMPORTS_PASSCHECK = re.compile(r"^\s*(import|from)\s+passcheck\b", re.M)


@pytest.fixture(scope="module")
def out(tmp_path_factory):
    d = tmp_path_factory.mktemp("repro")
    assert main(["repro", str(conv_bn_report(tmp_path_factory)), "--finding", ID, "--out", str(d / "out")]) == 0
    return d / "out"


def test_repro_writes_script_models_and_report(out):
    text = (out / "repro.py").read_text()
    assert not IMPORTS_PASSCHECK.search(text)
    assert "helper.make_node('Conv', ['x', 'w', '']" in text  # the empty optional input, spelled with onnx.helper
    assert [n.op_type for n in onnx.load(str(out / "uncommon.onnx")).graph.node] == ["Conv", "BatchNormalization"]
    md = (out / "REPORT.md").read_text()
    for heading in ("## Environment", "## Steps", "## Expected", "## Actual", "## Attribution", "## First bad version"):
        assert heading in md
    assert "`ConvBNFusion`" in md and f"onnxruntime {onnxruntime.__version__}" in md


def test_repro_script_fails_on_todays_onnxruntime_in_a_venv_without_passcheck(out, tmp_path, tmp_path_factory):
    py = bare_python(tmp_path_factory)  # today's onnx, onnxruntime, numpy (and onnxscript): tests/_bare_venv.py
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    assert (
        subprocess.run([str(py), "-c", "import passcheck"], env=env, capture_output=True, cwd=tmp_path).returncode != 0
    )
    run = subprocess.run(
        [str(py), str(out / "repro.py")], env=env, capture_output=True, text=True, timeout=600, cwd=tmp_path
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "BUG: BatchNormalization removed from common (1->0) but not from empty-name (1->1)" in run.stdout


def test_script_exits_zero_once_the_forms_are_optimized_alike(tmp_path):
    common = load_builtin().get(CASE).build("common")
    f = Finding(
        "missed-optimization",
        "parity",
        CASE,
        "empty-name",
        "ort:basic",
        "m",
        details={"other_form": "common", "kept_op_types": ["BatchNormalization"]},
    )
    text, how = script(f, common, common)  # a fixed onnxruntime treats the forms alike: stand-in, same form twice
    assert how == {"common": "helper", "empty-name": "helper"}
    (tmp_path / "repro.py").write_text(text)
    run = subprocess.run([sys.executable, str(tmp_path / "repro.py")], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "fixed" in run.stdout


def test_a_model_helper_cannot_spell_is_embedded_as_bytes():
    from onnx import helper

    then = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["y"])], "then", [], [helper.make_tensor_value_info("y", 1, [1])]
    )
    node = helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=then)
    g = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("c", 9, []), helper.make_tensor_value_info("x", 1, [1])],
        [helper.make_tensor_value_info("y", 1, [1])],
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    src, how = model_source(model, "build")
    assert how == "bytes"
    ns: dict = {}
    exec("import base64, onnx\n" + src, ns)  # noqa: S102
    assert ns["build"]().SerializeToString() == model.SerializeToString()


@pytest.mark.parametrize("elem", [17, 19, 24])  # float8e4m3fn, float8e5m2, float8e8m0
def test_a_float8_initializer_rebuilds_whichever_way_it_is_written(elem):
    """A float8 tensor's numpy type is ml_dtypes', not numpy's: a source that cannot run falls back to the bytes
    instead of raising (round 15c: the hunt stopped on ``np.float8_e5m2``)."""
    import numpy as np
    import onnx
    from onnx import helper

    g = helper.make_graph(
        [helper.make_node("CastLike", ["x", "t"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", 1, [2])],
        [helper.make_tensor_value_info("y", elem, [2])],
        [helper.make_tensor("t", elem, [1], [1.0])],
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 24)], ir_version=11)
    src, how = model_source(model, "build")
    assert how in ("helper", "bytes")
    ns: dict = {"np": np, "helper": helper, "numpy_helper": onnx.numpy_helper}
    exec("import base64, onnx\n" + src, ns)  # noqa: S102
    assert ns["build"]().graph.initializer[0].data_type == elem


def test_repro_refuses_a_finding_it_does_not_cover(tmp_path, capsys):
    assert main(["run", "--case", CASE, "--pass", "onnx:infer-shapes", "--json", str(tmp_path / "r.json"), "-q"]) in (
        0,
        1,
    )
    assert main(["repro", str(tmp_path / "r.json"), "--out", str(tmp_path / "out")]) == 2
    assert "passcheck: error:" in capsys.readouterr().err


def _bisect_json(path, **fields):
    doc = {
        "finding": ID,
        "package": "onnxruntime",
        "range": ["1.20.0", "1.21.0", "1.22.0", "1.23.0"],
        "direction": "regression",
        "last_old": "1.21.0",
        "first_new": "1.22.0",
        "skipped_between": [],
        "conclusion": "regression: first bad 1.22.0, last good 1.21.0",
        "probes": [{"version": "1.23.0"}, {"version": "1.20.0"}, {"version": "1.21.0"}, {"version": "1.22.0"}],
        **fields,
    }
    path.write_text(json.dumps(doc))
    return path


def test_report_names_the_first_bad_version_from_a_bisection_or_says_not_bisected(out, tmp_path, tmp_path_factory):
    assert "## First bad version\nnot bisected" in (out / "REPORT.md").read_text()
    report = conv_bn_report(tmp_path_factory)
    b = _bisect_json(tmp_path / "bisect.json")
    assert (
        main(
            ["repro", str(report), "--finding", ID, "--out", str(tmp_path / "o1"), "--no-attribute", "--bisect", str(b)]
        )
        == 0
    )
    md = (tmp_path / "o1" / "REPORT.md").read_text()
    assert (
        "**onnxruntime 1.22.0** (last good: 1.21.0) (bisected over onnxruntime 1.20.0 … 1.23.0, 4 releases, 4 probed)"
        in md
    )
    fix = _bisect_json(
        tmp_path / "fix.json",
        direction="fix",
        last_old="1.30.0",
        first_new="1.31.0",
        finding="other|ort:basic|parity|x",
        skipped_between=["1.30.1"],
    )
    assert (
        main(
            [
                "repro",
                str(report),
                "--finding",
                ID,
                "--out",
                str(tmp_path / "o2"),
                "--no-attribute",
                "--bisect",
                str(fix),
            ]
        )
        == 0
    )
    md = (tmp_path / "o2" / "REPORT.md").read_text()
    assert (
        "present up to onnxruntime 1.30.0, **fixed in 1.31.0**" in md
        and "1.30.1" in md
        and "on finding `other|ort:basic|parity|x`" in md
    )


def test_a_bad_bisect_file_is_one_line_and_exit_2(tmp_path, tmp_path_factory, capsys):
    (tmp_path / "b.json").write_text('{"package": "onnxruntime"}')
    assert (
        main(
            [
                "repro",
                str(conv_bn_report(tmp_path_factory)),
                "--finding",
                ID,
                "--out",
                str(tmp_path / "o"),
                "--bisect",
                str(tmp_path / "b.json"),
            ]
        )
        == 2
    )
    err = capsys.readouterr().err
    assert "not a bisect.json" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_a_form_that_keeps_one_of_two_nodes_reproduces_as_parity_judged_it(tmp_path, capsys):
    """Parity's rule: 'common' lost its one Transpose, 'transposed-product' kept one of its two (2->1). The script and
    the attribution judged removed counts alone (1 = 1: "optimized alike") and did not reproduce it (issue 31,
    4 ORT parity candidates of docs/found.md)."""
    case, fid = "fusion-matmul/transpose-matmul-r3", "transposed-product|ort:extended|parity|missed-optimization"
    report = tmp_path / "r.json"
    assert main(["run", "--case", case, "--pass", "ort:extended", "--json", str(report), "-q"]) == 1
    capsys.readouterr()
    assert main(["repro", str(report), "--finding", f"{case}:{fid}", "--out", str(tmp_path / "o")]) == 0
    said = capsys.readouterr().out
    assert "BUG: Transpose removed from common (1->0) but not from transposed-product (2->1)" in said, said
    assert "`MatmulTransposeFusion`" in (tmp_path / "o" / "REPORT.md").read_text()


def test_kept_by_rule_is_parity_rule():
    from passcheck.attribution.ort import kept_by_rule

    assert kept_by_rule("T", {"T": 1}, {}, {"T": 2}, {"T": 1})  # A lost all, B kept some
    assert kept_by_rule("T", {"T": 2}, {"T": 1}, {"T": 2}, {"T": 2})  # as many, B lost fewer
    assert not kept_by_rule("T", {"T": 2}, {"T": 1}, {"T": 3}, {"T": 2})  # A kept some too, counts differ
    assert not kept_by_rule("T", {"T": 1}, {}, {"T": 1}, {})  # both lost all
