"""A classifier whose output is a sequence of maps (skl2onnx's default ZipMap) goes through the
equivalence gate: maps and sequences are compared element by element with the tolerance of their
element type, so ``check --mutations`` and ``mutate`` give a verdict (exit 0/1), never exit 3."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from passcheck.oracles.numeric import compare, leaf_dtype

PASSCHECK = str(Path(sys.executable).with_name("passcheck"))


@pytest.fixture(scope="module")
def zipmap_model(tmp_path_factory):
    sklearn = pytest.importorskip("sklearn")
    skl2onnx = pytest.importorskip("skl2onnx")
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    x, y = sklearn.datasets.load_iris(return_X_y=True)
    x = x.astype(np.float32)
    pipe = make_pipeline(StandardScaler(), LogisticRegression(max_iter=500)).fit(x, y)
    model = skl2onnx.to_onnx(pipe, x[:1])
    assert model.graph.output[1].type.WhichOneof("value") == "sequence_type"  # ZipMap: seq(map(int64, float))
    path = tmp_path_factory.mktemp("zipmap") / "iris.onnx"
    path.write_bytes(model.SerializeToString())
    return path


def test_check_mutations_on_a_zipmap_classifier_gives_a_verdict(zipmap_model, tmp_path):
    p = subprocess.run(
        [
            PASSCHECK,
            "check",
            str(zipmap_model),
            "--mutations",
            "--pass",
            "ort:disabled",
            "--json",
            str(tmp_path / "r.json"),
            "-q",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert p.returncode in (0, 1), p.stderr[-2000:]
    assert "Traceback" not in p.stderr
    forms = {c["form"] for c in json.loads((tmp_path / "r.json").read_text())["results"]}
    assert "float64-compute" in forms  # the mutant the exact comparison refused is checked


def test_mutate_writes_the_mutants_of_a_zipmap_classifier(zipmap_model, tmp_path):
    p = subprocess.run(
        [PASSCHECK, "mutate", str(zipmap_model), "--out", str(tmp_path / "m"), "--form", "float64-compute"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert p.returncode == 0, p.stderr[-2000:]
    assert any(".float64-compute." in f.name for f in (tmp_path / "m").iterdir())


def test_map_and_sequence_values_compare_element_by_element_with_the_element_tolerance():
    import onnx

    seq_map = onnx.helper.make_sequence_type_proto(
        onnx.helper.make_map_type_proto(
            onnx.TensorProto.INT64, onnx.helper.make_tensor_type_proto(onnx.TensorProto.FLOAT, [])
        )
    )
    dtype = leaf_dtype(seq_map)
    assert dtype == np.float32
    expected = [{0: 0.25, 1: 0.75}]
    assert compare([{0: 0.25 + 1e-6, 1: 0.75}], expected, dtype=dtype).ok  # within float32's tolerance
    bad = compare([{0: 0.35, 1: 0.75}], expected, dtype=dtype)
    assert not bad.ok and "element 0: key 0" in bad.message  # a real difference is still caught, and placed
    assert not compare([{0: 0.25, 2: 0.75}], expected, dtype=dtype).ok  # other keys
    assert not compare([{0: 0.25}], [0.25], dtype=dtype).ok  # a map is not a scalar
    assert compare(None, None).ok and not compare(None, np.zeros(1, np.float32)).ok  # optional: absent vs present
