"""An attribute neighbour whose new value asks for another output count (round 19g, M405).

BatchNormalization-14/15's inference wants 3 outputs when ``training_mode`` is 1 and 1 when it is 0 (Operators.md;
onnx's "This number of op outputs should be 3 when Training_mode = True"). ``attr-training_mode=1`` on a one-output
BatchNormalization was refused by the checker; :mod:`passcheck.hunt.vary_attr_outputs` writes the optional outputs,
unread, so the neighbour is valid and computes with the batch's statistics. A pass that folds the running statistics
into the Conv whatever the mode (onnxscript 0.7.2's FuseBatchNormIntoConv, docs/found.md row 1150) is then judged
wrong against the neighbour's unoptimized run."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import helper, numpy_helper

from passcheck.api import check_model
from passcheck.hunt import variation, vary_attr_outputs
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PLANTED = "planted:fold-bn-running-stats"
RNG = np.random.default_rng(0)
#: the Conv weight, then BatchNormalization's scale, bias, mean and var (C = 4), each a constant per channel
PARAMS = {"W": RNG.standard_normal((4, 3, 1, 1)).astype(np.float32)} | {
    name: np.full(4, value, np.float32) for name, value in zip(("scale", "bias", "mean", "var"), (1.5, 0.1, 0.3, 2.0))
}


def _model(outputs=("y",), training_mode=None, read_mean=False) -> onnx.ModelProto:
    attrs = {} if training_mode is None else {"training_mode": training_mode}
    nodes = [
        helper.make_node("Conv", ["x", "W"], ["c"], name="conv"),
        helper.make_node(
            "BatchNormalization", ["c", "scale", "bias", "mean", "var"], list(outputs), name="bn", **attrs
        ),
        helper.make_node("Relu", ["y"], ["z"], name="relu"),
    ]
    graph_outputs = [helper.make_tensor_value_info("z", onnx.TensorProto.FLOAT, [2, 4, 3, 3])]
    if read_mean:
        nodes.append(helper.make_node("Neg", [outputs[1]], ["m_out"], name="neg"))
        graph_outputs.append(helper.make_tensor_value_info("m_out", onnx.TensorProto.FLOAT, [4]))
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3, 3, 3])],
        graph_outputs,
        [numpy_helper.from_array(v, k) for k, v in PARAMS.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 15)], ir_version=8)


def _fold_running_stats(model: onnx.ModelProto) -> onnx.ModelProto:
    """Conv → BatchNormalization folded into the Conv with ``mean`` and ``var``, whatever ``training_mode`` says."""
    inits = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    bn = model.graph.node[1]
    s = inits["scale"] / np.sqrt(inits["var"] + 1e-5)
    w = inits["W"] * s.reshape(-1, 1, 1, 1)
    b = inits["bias"] - inits["mean"] * s
    kept = [t for t in model.graph.initializer if t.name not in ("W",)]
    del model.graph.initializer[:]
    model.graph.initializer.extend([*kept, numpy_helper.from_array(w, "W"), numpy_helper.from_array(b, "Wb")])
    fused = helper.make_node("Conv", ["x", "W", "Wb"], [bn.output[0]], name="conv")
    rest = list(model.graph.node)[2:]
    del model.graph.node[:]
    model.graph.node.extend([fused, *rest])
    return model


if PLANTED not in known_pass_ids():
    register_pass(
        FunctionAdapter(PLANTED, _fold_running_stats, doc="test pass: BatchNormalization folded by its running stats")
    )


def _run(model: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": x})[0]


def _neighbour(model: onnx.ModelProto, value: int) -> onnx.ModelProto:
    site = f"vary:attr-training_mode@bn={value}"
    assert site in variation.offered(model)
    built = variation.build(model, site)
    assert built is not None
    return built[0]


def test_training_mode_one_gets_the_running_outputs_and_is_valid():
    base = _model()
    mutant = _neighbour(base, 1)
    bn = next(n for n in mutant.graph.node if n.op_type == "BatchNormalization")
    assert list(bn.output) == ["y", "bn__out1", "bn__out2"]
    assert {a.name: a.i for a in bn.attribute} == {"training_mode": 1}
    onnx.checker.check_model(mutant, full_check=True)
    x = RNG.standard_normal((2, 3, 3, 3)).astype(np.float32)
    # batch statistics: not the running ones the base reads
    assert not np.allclose(_run(mutant, x), _run(base, x), atol=1e-3)
    from onnx.reference import ReferenceEvaluator

    np.testing.assert_allclose(_run(mutant, x), ReferenceEvaluator(mutant).run(None, {"x": x})[0], rtol=1e-4, atol=1e-5)


def test_training_mode_zero_drops_unread_running_outputs_only():
    mutant = _neighbour(_model(("y", "rm", "rv"), training_mode=1), 0)
    assert list(next(n for n in mutant.graph.node if n.op_type == "BatchNormalization").output) == ["y"]
    onnx.checker.check_model(mutant, full_check=True)
    read = _model(("y", "rm", "rv"), training_mode=1, read_mean=True)
    assert variation.build(read, "vary:attr-training_mode@bn=0") is None  # `rm` is read: no count fits


def test_fit_leaves_an_accepted_node_alone():
    model = _model()
    bn = model.graph.node[1]
    types = {i.name: i.type for i in model.graph.input}
    types |= {t.name: helper.make_tensor_type_proto(t.data_type, t.dims) for t in model.graph.initializer}
    types["c"] = helper.make_tensor_type_proto(onnx.TensorProto.FLOAT, [2, 4, 3, 3])
    schema = onnx.defs.get_schema("BatchNormalization", 15)
    assert vary_attr_outputs.fit(model, bn, schema, types) and list(bn.output) == ["y"]
    del types["c"]
    assert not vary_attr_outputs.fit(model, bn, schema, types)  # an input of unknown type: untouched


@pytest.mark.parametrize(("pass_id", "found"), [(PLANTED, True), ("ort:basic", False)])
def test_a_fold_by_running_statistics_is_reported_on_the_neighbour(pass_id, found):
    """Judged by the real engine: the planted fold ignores the mode and is wrong; onnxruntime's own Conv +
    BatchNormalization fusion leaves a training-mode BatchNormalization alone."""
    report = check_model(_neighbour(_model(), 1), [pass_id], isolation=False)
    (cell,) = [c for c in report.cells if c.pass_id == pass_id]
    wrong = [f for f in cell.findings if f.oracle == "numeric"]
    assert bool(wrong) is found, [(f.oracle, f.kind, f.message[:120]) for f in cell.findings]
