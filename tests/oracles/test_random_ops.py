"""M524: the ops that draw come from the schemas' NonDeterministic marks (passcheck.oracles.random_ops), with Dropout
in training mode; a planted pass that folds a training-mode Dropout into one sample is caught by frozen_draws."""

from __future__ import annotations

import numpy as np
import onnx.defs
from onnx import TensorProto, helper, numpy_helper

from passcheck.oracles import frozen_draws, numeric, random_ops
from passcheck.runtime.session import run_ort
from tests.oracles.test_oracle_power import _form_run


def test_the_set_is_the_schemas_marks_less_the_stated_exclusions(monkeypatch):
    six = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Multinomial", "Bernoulli"}
    assert six <= random_ops.RANDOM
    assert not set(random_ops.EXCLUDED) & random_ops.RANDOM
    assert numeric.RANDOM == random_ops.RANDOM
    # an onnx without node_determinism (1.16 … 1.19) falls back to the marks of onnx 1.23
    monkeypatch.delattr(onnx.defs.OpSchema, "NodeDeterminism", raising=False)
    assert random_ops.marked() == random_ops.FALLBACK


def _dropout(mode, ratio=0.5):
    """``y = Dropout(x, r, t)`` (opset 13), ``r`` = ``ratio`` and ``t`` = ``mode`` initializers, ``x: float[64]``."""
    g = helper.make_graph(
        [helper.make_node("Dropout", ["x", "r", "t"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64])],
        [numpy_helper.from_array(np.array(ratio, np.float32), "r"), numpy_helper.from_array(np.array(mode), "t")],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def _planted_fold(model):
    """A broken folding pass: evaluates the Dropout once on ones and writes its output (a fixed mask) as ``x * c``."""
    sample = run_ort(model, {"x": np.ones(64, np.float32)}).outputs["y"]
    g = helper.make_graph(
        [helper.make_node("Mul", ["x", "c"], ["y"])],
        "g",
        list(model.graph.input),
        list(model.graph.output),
        [numpy_helper.from_array(sample, "c")],
    )
    return helper.make_model(g, opset_imports=list(model.opset_import), ir_version=model.ir_version)


def test_a_folded_training_mode_dropout_is_a_frozen_draw():
    m = _dropout(True)
    (found,) = frozen_draws.check(_form_run(m, [(64,)], output=_planted_fold(m)))
    assert (found.kind, found.details["outputs"]) == ("wrong-result", ["y"])


def test_an_inference_dropout_or_ratio_zero_folded_is_no_finding():
    for m in (_dropout(False), _dropout(True, ratio=0.0)):
        assert numeric.drawn(m) == set()
        assert frozen_draws.check(_form_run(m, [(64,)], output=_planted_fold(m))) == []


def test_old_dropout_draws_unless_is_test():
    train = helper.make_node("Dropout", ["x"], ["y"])
    test = helper.make_node("Dropout", ["x"], ["y"], is_test=1)
    assert random_ops.draws(train, opset=6) and not random_ops.draws(test, opset=6)
    assert not random_ops.draws(train, opset=10)  # Dropout-7 / -10: no training mode
    assert not random_ops.draws(helper.make_node("AffineGrid", ["t", "s"], ["g"]))
    assert not random_ops.draws(helper.make_node("If", ["c"], ["y"]))


def test_constants_are_read_only_when_asked_and_unreadable_ones_are_unknown():
    """A model whose weights live outside it (external data, or the isolation worker's held payloads) is judged
    without decoding them: only Dropout's ratio / training_mode are read, and one that cannot be read is unknown
    (a Dropout reading it may draw). CI105: ``light_squeezenet`` under ``ort:basic`` raised onnx's
    ValidationError from here when every initializer was decoded."""
    t = numpy_helper.from_array(np.array(False), "mode")
    t.data_location = TensorProto.EXTERNAL
    t.external_data.add(key="location", value="elsewhere")
    t.ClearField("raw_data")
    w = numpy_helper.from_array(np.array(0.5, np.float32), "ratio")
    g = helper.make_graph(
        [helper.make_node("Dropout", ["x", "ratio", "mode"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        [w, t],
    )
    consts = random_ops.constants_of(g)
    assert consts.get("mode") is None and float(consts["ratio"]) == 0.5
    assert random_ops.draws(g.node[0], consts, 13)  # the unreadable mode counts as possibly true
