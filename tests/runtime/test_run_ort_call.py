"""How ``run_ort`` is called (its signature is the API the oracles and plugins use): the model and feeds by
position or by name, what to observe by name only; a survivor of ``bench/mutation_score.py`` showed it
unguarded. Real onnxruntime runs."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import parser

from passcheck.runtime.session import run_ort
from tests.oracles.test_contract import RELU

X = {"x": np.array([-1.0, 2.0], np.float32)}


def test_model_and_feeds_may_be_named_and_what_to_observe_must_be():
    """Mutant killed: the ``*`` of ``run_ort``'s signature → ``/``: ``model=`` and ``feeds=`` were refused, and a
    third positional argument was taken for ``expose`` (``run_ort(model, feeds, names)`` ran instead of failing)."""
    model = parser.parse_model(RELU)
    named = run_ort(model=model, feeds=X, expose=["t"])
    assert named.error is None, named.error
    np.testing.assert_array_equal(named.outputs["y"], [0.0, 2.0])
    np.testing.assert_array_equal(named.observed["t"], [0.0, 2.0])
    with pytest.raises(TypeError):
        run_ort(model, X, ["t"])
