"""Feed-synthesis behaviours survivors of ``bench/mutation_score.py`` showed unguarded; the feeds are run
by onnxruntime to show they fit the model."""

from __future__ import annotations

import onnx
import pytest
from onnx import helper, parser

from passcheck.errors import FeedError
from passcheck.runtime.feeds import synthesize
from passcheck.runtime.session import run_ort


def test_a_zero_dim_value_is_an_empty_axis_and_a_negative_one_is_refused():
    """Mutants killed: ``d.dim_value < 0`` → ``< 1`` / ``<= 0`` in ``_plan``: a dim of 0 (an empty tensor,
    valid: IR.md §Tensor shapes) was refused."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[0, 3] x) => (float[0, 3] y) { y = Relu (x) }""")
    feeds = synthesize(model, {}, 0)
    assert feeds["x"].shape == (0, 3)
    assert not run_ort(model, feeds).error
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_value = -1
    with pytest.raises(FeedError, match="negative dim_value -1"):
        synthesize(model, {}, 0)


def test_an_empty_dim_param_is_no_symbol_a_binding_could_size():
    """Mutant killed: ``d.HasField("dim_param") and d.dim_param`` → ``or`` in ``_plan``: a dim whose
    dim_param is the empty string (no name: an unknown dim) took the size a binding gives the name ""."""
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["", 3])
    assert x.type.tensor_type.shape.dim[0].HasField("dim_param")
    model = helper.make_model(
        helper.make_graph(
            [helper.make_node("Relu", ["x"], ["y"])], "g", [x], [helper.make_tensor_value_info("y", 1, None)]
        ),
        opset_imports=[helper.make_opsetid("", 18)],
    )
    feeds = synthesize(model, {"": 7, "N": 5}, 0, default_size=4)
    assert feeds["x"].shape == (4, 3)
    assert not run_ort(model, feeds).error


def test_bool_feeds_are_true_about_half_the_time():
    """Mutant killed: ``rng.integers(0, 2)`` → ``(0, 3)`` for bool in ``_values``: two of three drawn values
    were True, not the uniform bool the module documents."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (bool[100, 100] x) => (bool[100, 100] y) { y = Not (x) }""")
    x = synthesize(model, {}, 0)["x"]
    assert x.dtype == bool and 0.47 < x.mean() < 0.53, x.mean()
