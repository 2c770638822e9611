"""``unused-default-input`` (round 18g, M371): a graph input no node reads, with an initializer as its default
(IR.md §Graphs: inputs need not be read; an initializer of an input's name is its overridable default, IR >= 4).
The mutant computes the same outputs from the same feeds; a pass that drops the unread initializer and keeps the
input (onnxscript 0.2.0's unused-node removal, R211 of docs/recall.md) leaves an input that must be fed."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest

from passcheck.api import check_model
from passcheck.mutations import REWRITES
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

SRC = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[2, 3] y) { y = Relu(x) }"""
PLANTED = "planted:drop-unread-initializers"


def _drop_unread_initializers(model: onnx.ModelProto) -> onnx.ModelProto:
    """Every initializer no node reads removed, the graph inputs of the same names kept."""
    read = {x for n in model.graph.node for x in n.input}
    kept = [t for t in model.graph.initializer if t.name in read]
    del model.graph.initializer[:]
    model.graph.initializer.extend(kept)
    return model


if PLANTED not in known_pass_ids():
    register_pass(FunctionAdapter(PLANTED, _drop_unread_initializers, doc="test pass: unread initializers dropped"))


def _run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


def test_an_unread_input_with_its_default_is_added_and_needs_no_feed():
    base = onnx.parser.parse_model(SRC)
    mutant, applied = REWRITES["unused-default-input"].apply(base)
    assert applied.nodes == ("unused_default",)
    assert [v.name for v in mutant.graph.input] == ["x", "unused_default"]
    assert [t.name for t in mutant.graph.initializer] == ["unused_default"]
    onnx.checker.check_model(mutant, full_check=True)
    x = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    np.testing.assert_array_equal(_run(mutant, x), _run(base, x))  # no feed for the new input
    old = onnx.parser.parse_model(SRC.replace("ir_version: 8", "ir_version: 3"))
    assert REWRITES["unused-default-input"].apply(old) is None  # before IR 4 an initializer is no default


@pytest.mark.parametrize(("pass_id", "found"), [(PLANTED, True), ("onnxscript:optimize", False)])
def test_a_pass_keeping_the_input_without_its_default_is_reported(pass_id, found):
    """Judged by the real engine: the planted pass leaves an input that must be fed (the run fails on the base's
    feeds); onnxscript's optimizer here drops or keeps both, so its output runs."""
    mutant, _ = REWRITES["unused-default-input"].apply(onnx.parser.parse_model(SRC))
    report = check_model(mutant, [pass_id], isolation=False)
    (cell,) = [c for c in report.cells if c.pass_id == pass_id]
    assert bool(cell.findings) is found, [(f.oracle, f.kind, f.message[:120]) for f in cell.findings]
