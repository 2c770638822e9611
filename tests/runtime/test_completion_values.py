"""Annotated initializers asked for whole (``values``), not by shape only: what ``initializer_observations``
reads, with and without the model's digest, and what it leaves when the data is not loaded; behaviours
survivors of ``bench/mutation_score.py`` showed unguarded, on onnx's own tensor reader."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import onnx
from onnx import external_data_helper

from passcheck.runtime.completion import initializer_observations
from tests.runtime.test_runtime_survivors import _neg_with_weights

X = {"x": np.ones(2, np.float32)}


def test_initializers_asked_whole_are_read_as_arrays_unless_a_feed_overrides_them():
    """Mutants killed: ``not values and not shapes`` → ``values and not shapes`` (either ``not`` removed or
    doubled): values asked without shapes returned nothing; ``… if values else ()`` → ``if not values`` or
    the loop made empty: no initializer was read."""
    model = _neg_with_weights()
    got = initializer_observations(model, X, ["w", "v"], [])
    assert sorted(got) == ["v", "w"]
    np.testing.assert_array_equal(got["v"], np.ones(3, np.float32))
    assert list(initializer_observations(model, {**X, "w": np.zeros(2, np.float32)}, ["w", "v"], [])) == ["v"]


def test_with_the_models_digest_values_asked_whole_are_still_read():
    """Mutant killed: ``digest is not None and not values`` → ``and values``: with the digest known, values
    asked whole took the by-shape path and came back as nothing."""
    model = _neg_with_weights()
    digest = hashlib.sha256(model.SerializeToString()).digest()
    got = initializer_observations(model, X, ["w"], [], digest)
    assert list(got) == ["w"] and isinstance(got["w"], np.ndarray)
    np.testing.assert_array_equal(got["w"], np.ones(2, np.float32))


def test_an_initializer_whose_external_data_is_not_loaded_is_left_unobserved():
    """Mutant killed: ``except Exception`` → another exception: a weight stored outside the model and not
    loaded (its file absent) made the observation raise instead of leaving that weight unobserved."""
    model = _neg_with_weights()
    w = model.graph.initializer[0]
    external_data_helper.set_external_data(w, location="passcheck-test-absent-weights.bin")
    w.data_location = onnx.TensorProto.EXTERNAL
    w.ClearField("raw_data")
    w.ClearField("float_data")
    assert not Path("passcheck-test-absent-weights.bin").exists()
    got = initializer_observations(model, X, ["w", "v"], [])
    assert sorted(got) == ["v"]
