"""What form onnx's reference evaluator's graph outputs take in a passcheck run (``run_reference``): an
optional tensor unwrapped to its tensor, an empty one None, a one-element sequence left a list, a scalar
a 0-d array; behaviours survivors of ``bench/mutation_score.py`` showed unguarded."""

from __future__ import annotations

import numpy as np
from onnx import parser

from passcheck.runtime.reference import run_reference

OUTPUTS = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (seq(float[2]) s, optional(float[2]) e, optional(float[2]) o, float z) {
  s = SequenceConstruct (x)
  z = ReduceSum <keepdims = 0> (x)
  e = Optional <type = float[2]> ()
  o = Optional (x)
}"""


def test_a_one_element_sequence_stays_a_list_an_empty_optional_is_none_and_a_full_one_its_tensor():
    """Mutants killed in ``run_reference``: ``_not_sequences(model) & set(outputs)`` → ``|`` (the sequence
    output, one tensor long, was unwrapped to that tensor) and ``isinstance(…, list) and len(…) == 1`` → ``or``
    (a scalar output, a 0-d array, was asked its length: the run raised)."""
    x = np.array([1.0, -2.0], np.float32)
    r = run_reference(parser.parse_model(OUTPUTS), {"x": x})
    assert r.error is None, r.error
    assert isinstance(r.outputs["s"], list) and len(r.outputs["s"]) == 1
    np.testing.assert_array_equal(r.outputs["s"][0], x)
    assert r.outputs["e"] is None
    assert isinstance(r.outputs["o"], np.ndarray)
    np.testing.assert_array_equal(r.outputs["o"], x)
    assert r.outputs["z"].shape == () and r.outputs["z"] == np.float32(-1.0)
