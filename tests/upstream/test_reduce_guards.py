"""``passcheck reduce``: a reduced pair is still one computation; an --out holds one reduction; a
refused --check/--compare model is one error line."""

from __future__ import annotations

import json

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.cli import main

DATA_PROP = "data-prop/reshape-flatten:identity|onnx:infer-shapes-data-prop|parity|less-precise"


def _read_inputs(model) -> set[str]:
    """Graph inputs some node of the main graph reads."""
    read = {i for n in model.graph.node for i in n.input}
    return {v.name for v in model.graph.input if v.name in read}


def test_data_prop_finding_reduces_to_a_pair_computing_one_thing(tmp_path, capsys):
    """The user's repro: the cut freed a Gather→Unsqueeze value (vec_6) in the uncommon form only, so
    Reshape read a free input the common form never used, and at batch 7 onnxruntime refused the
    uncommon form ("requested shape {7,24}"). Now both forms read the same inputs and agree."""
    report = tmp_path / "r1.json"
    assert (
        main(
            ["run", "--case", "data-prop/reshape-flatten", "--pass", "onnx:infer-shapes-data-prop"]
            + ["--json", str(report), "-q"]
        )
        == 1
    )
    out = tmp_path / "red"
    assert main(["reduce", str(report), "--finding", DATA_PROP, "--out", str(out), "--budget", "60"]) == 0
    capsys.readouterr()
    a, b = onnx.load(str(out / "common.onnx")), onnx.load(str(out / "uncommon.onnx"))
    assert _read_inputs(a) == _read_inputs(b) == {"x"}
    rng = np.random.default_rng(0)
    for batch in (5, 7):
        x = rng.standard_normal((batch, *[d.dim_value for d in a.graph.input[0].type.tensor_type.shape.dim][1:]))
        feeds = {"x": x.astype(np.float32)}
        ya = ort.InferenceSession(a.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
        yb = ort.InferenceSession(b.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
        assert len(ya) == len(yb) and all(np.array_equal(p, q) for p, q in zip(ya, yb))
    # the signature is kept: compare on the reduced pair shows the same less-precise parity finding
    again = tmp_path / "again.json"
    argv = ["compare", str(out / "common.onnx"), str(out / "uncommon.onnx")]
    assert main([*argv, "--pass", "onnx:infer-shapes-data-prop", "--json", str(again), "-q"]) == 1
    found = [
        (f["oracle"], f["kind"])
        for c in json.loads(again.read_text())["results"]
        if c["pass_id"] == "onnx:infer-shapes-data-prop"
        for f in c["findings"]
    ]
    assert ("parity", "less-precise") in found


def test_an_out_holding_another_reduction_is_refused_before_anything_is_written(tmp_path, capsys):
    from tests.upstream.test_attribute import _reshape_pair

    _reshape_pair(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    state = json.dumps({"finding": "model/x:y|ort:basic|parity|missed-optimization", "keep": ["y"], "finished": True})
    (out / "reduce-state.json").write_text(state)
    (out / "common.onnx").write_bytes(b"the other finding's common form")
    fid = "model/a:b|onnx:infer-shapes|parity|less-precise"
    argv = ["reduce", "--compare", str(tmp_path / "a.onnx"), str(tmp_path / "b.onnx"), "--pass", "onnx:infer-shapes"]
    for extra in ([], ["--resume"]):
        assert main([*argv, "--finding", fid, "--out", str(out), *extra]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("passcheck: error: "), err
        assert (out / "reduce-state.json").read_text() == state
        assert (out / "common.onnx").read_bytes() == b"the other finding's common form"
        assert not (out / "report.json").exists()
    # its own finding resumed in its own --out goes on
    mine = tmp_path / "mine"
    assert main([*argv, "--finding", fid, "--out", str(mine)]) == 0
    assert main([*argv, "--finding", fid, "--out", str(mine)]) == 2
    assert "continue it with --resume" in capsys.readouterr().err
    assert main([*argv, "--finding", fid, "--out", str(mine), "--resume"]) == 0


@pytest.mark.parametrize("source", ["check", "compare"])
def test_a_model_check_or_compare_refuses_is_one_error_line(tmp_path, capsys, source):
    bad = tmp_path / "notonnx.onnx"
    bad.write_text("not a model")
    models = ["--check", str(bad), "--form", "empty-optional-input"] if source == "check" else []
    if source == "compare":
        models = ["--compare", str(tmp_path / "missing.onnx"), str(bad)]
    code = main(["reduce", *models, "--pass", "ort:basic", "--out", str(tmp_path / "x"), "--budget", "10"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("passcheck: error: ") and "nothing to reduce" not in err, err
    assert not (tmp_path / "x").exists()
