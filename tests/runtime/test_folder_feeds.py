"""`check MODEL` uses the test_data_set_K/input_J.pb shipped beside the model by default and says
so; --synthesize-feeds (API: synthesize_feeds=True) goes back to synthesized feeds."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from passcheck.api import check_model
from passcheck.runtime.feed_files import data_sets_beside, write_data_set
from tests._inproc import cli


def _reshape_folder(tmp_path):
    """Reshape(x, shape): synthesized values for ``shape`` cannot reshape 6 elements; real ones can."""
    g = helper.make_graph(
        [helper.make_node("Reshape", ["x", "shape"], ["y"])],
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]),
            helper.make_tensor_value_info("shape", TensorProto.INT64, [2]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2])],
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    onnx.save(model, tmp_path / "model.onnx")
    for k in range(2):
        write_data_set(
            tmp_path,
            k,
            model,
            {"x": np.arange(6, dtype=np.float32).reshape(2, 3) + k, "shape": np.array([3, 2], dtype=np.int64)},
        )
    return tmp_path / "model.onnx"


def test_data_sets_beside_the_model_are_used_by_default(tmp_path):
    path = _reshape_folder(tmp_path)
    assert data_sets_beside(path) == (tmp_path, "test_data_set_0..1 from the model folder")
    assert check_model(path, ["ort:basic"]).exit_code == 0
    synthesized = check_model(path, ["ort:basic"], synthesize_feeds=True)
    assert synthesized.exit_code == 1 and any("cannot run this form" in f.message for f in synthesized.findings)


def test_no_data_sets_means_none(tmp_path):
    onnx.save(helper.make_model(helper.make_graph([], "g", [], [])), tmp_path / "m.onnx")
    assert data_sets_beside(tmp_path / "m.onnx") is None


def test_cli_says_where_its_feeds_come_from(tmp_path):
    path = _reshape_folder(tmp_path)
    argv = ["check", path, "--pass", "ort:basic"]
    p = cli(*argv)
    assert p.returncode == 0 and "feeds: test_data_set_0..1 from the model folder" in p.stdout, p.stdout + p.stderr
    p = cli(*argv, "--synthesize-feeds")
    assert (
        p.returncode == 1 and "feeds: test_data_set" not in p.stdout and "--synthesize-feeds --pass input" in p.stdout
    ), p.stdout + p.stderr
