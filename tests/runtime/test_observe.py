"""observe(): ORT fast path (annotated intermediates as extra outputs) and the reference engine."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import parser

from passcheck.errors import PasscheckError
from passcheck.runtime.observe import RunFailed, observe

M = parser.parse_model('''<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x) => (double[N] y) {
  h = Relu(x)
  k = Neg(h)
  y = Identity(k)
}''')
M.graph.value_info.extend(parser.parse_graph("g (float[N] h) => (float[N] u) { u = Identity(h) }").input)


@pytest.mark.parametrize("engine", ["ort", "reference"])
def test_observes_annotated_values_despite_wrong_output_type(engine):
    observed, unobservable = observe(M, {"x": np.ones(2, np.float32)}, engine)
    assert {"x", "h", "y"} <= set(observed) and unobservable == {}
    assert observed["h"].shape == (2,) and observed["y"].dtype == np.float32


def test_ort_exposes_only_annotated_values():
    observed, _ = observe(M, {"x": np.ones(2, np.float32)}, "ort")
    assert "k" not in observed


def test_errors():
    with pytest.raises(PasscheckError, match="unknown engine"):
        observe(M, {}, "tvm")
    with pytest.raises(RunFailed, match="onnxruntime could not run"):
        observe(M, {"x": np.ones(2, np.int64)}, "ort")
