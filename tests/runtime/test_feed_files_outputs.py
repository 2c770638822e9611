"""Expected outputs of a backend-test data set bound to graph outputs by position, and the span of data
sets beside a model: behaviours survivors of ``bench/mutation_score.py`` showed unguarded, on files
written as onnx's backend tests lay them out (``test_data_set_K/output_J.pb``)."""

from __future__ import annotations

import numpy as np
from onnx import parser

from passcheck.runtime.feed_files import data_sets_beside, read_outputs, write_data_set

#: Two graph outputs: ``n`` (output_0.pb) and ``r`` (output_1.pb).
TWO = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] n, float[2] r) { n = Neg (x)  r = Relu (x) }"""
X = {"x": np.array([-1.0, 2.0], np.float32)}


def test_an_output_file_is_bound_to_the_output_at_its_position_and_a_missing_one_is_absent(tmp_path):
    """Mutants killed in ``read_outputs``: the loop over graph outputs made empty, ``Path(folder) / name`` →
    ``*``, and ``if f.is_file()`` negated: the stated outputs came back empty, raised, or a missing file was
    read while the present one was skipped."""
    model = parser.parse_model(TWO)
    folder = write_data_set(tmp_path, 0, model, X, {"r": np.array([0.0, 2.0], np.float32)})
    assert sorted(p.name for p in folder.iterdir()) == ["input_0.pb", "output_1.pb"]
    got = read_outputs(folder, model)
    assert list(got) == ["r"]
    np.testing.assert_array_equal(got["r"], [0.0, 2.0])


def test_three_data_sets_are_described_from_the_first_to_the_last(tmp_path):
    """Mutants killed in ``data_sets_beside``: ``sets[-1]`` → ``sets[1]`` / ``sets[+1]``: three sets 0, 1, 5
    were described as ``0..1``."""
    model = parser.parse_model(TWO)
    for k in (0, 1, 5):
        write_data_set(tmp_path, k, model, X)
    assert data_sets_beside(tmp_path / "model.onnx") == (tmp_path, "test_data_set_0..5 from the model folder")
