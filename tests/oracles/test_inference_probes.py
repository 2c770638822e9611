"""The inference probes (M531): each form strict inference accepts, broken in one documented range, must be refused."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import INPUT, Subject, evaluate
from passcheck.oracles import inference_probes, registry
from passcheck.oracles._context import FormRun
from passcheck.oracles.validity import checker_error
from passcheck.passes._base import PassOutcome


def _model() -> onnx.ModelProto:
    """``v, i = TopK(x, K=[2], axis=1)``, ``y = LayerNormalization(x, s, axis=-1)``, ``z = GatherND(x, j)``,
    ``u = Softmax(x)``, ``r = Relu(x)``; ``x: float[2, 5]``, opset 18."""
    f = TensorProto.FLOAT
    nodes = [
        helper.make_node("TopK", ["x", "k"], ["v", "i"], axis=1, name="topk"),
        helper.make_node("LayerNormalization", ["x", "s"], ["y"], axis=-1, name="ln"),
        helper.make_node("GatherND", ["x", "j"], ["z"], name="gnd"),
        helper.make_node("Softmax", ["x"], ["u"], name="sm"),
        helper.make_node("Relu", ["x"], ["r"], name="relu"),
    ]
    outs = [
        helper.make_tensor_value_info("v", f, [2, 2]),
        helper.make_tensor_value_info("i", TensorProto.INT64, [2, 2]),
        helper.make_tensor_value_info("y", f, [2, 5]),
        helper.make_tensor_value_info("z", f, [2]),
        helper.make_tensor_value_info("u", f, [2, 5]),
        helper.make_tensor_value_info("r", f, [2, 5]),
    ]
    inits = [
        numpy_helper.from_array(np.array([2], np.int64), "k"),
        numpy_helper.from_array(np.ones(5, np.float32), "s"),
        numpy_helper.from_array(np.array([[0, 1], [1, 2]], np.int64), "j"),
    ]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", f, [2, 5])], outs, inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def _run(model, checker) -> FormRun:
    return FormRun("c", "common", INPUT, model, PassOutcome(INPUT, "unchanged", model), [{}], [], [], checker=checker)


def test_every_probe_breaks_its_rule_and_the_engine_reports_those_strict_inference_accepts():
    m = _model()
    assert checker_error(m, full_check=True) is None
    ps = inference_probes.probes(m, limit=10)
    assert [(p.kind, p.site, p.rule) for p in ps] == [
        ("axis-past-end", "topk", "axis-TopK"),
        ("topk-k-zero", "topk", "topk-k-positive"),
        ("axis-past-end", "ln", "axis-LayerNormalization"),
        ("batch-dims-negative", "gnd", "gathernd-batch-dims"),
        ("axis-past-end", "sm", "axis-Softmax"),
    ]
    assert ps[0].says == "axis = 2: [2] outside [-2, 1] (rank 2)" and ps[1].says == "K = [0]: [0] are not positive"
    assert [o.name for o in ps[0].model.graph.output] == ["x"] and not ps[0].model.graph.value_info
    assert [n.input[1] for n in m.graph.node[:1]] == ["k"] and len(m.graph.output) == 6  # the form untouched
    accepted = {(p.kind, p.site) for p in ps if checker_error(p.model, full_check=True) is None}
    # onnx 1.23.2: TopK's and Softmax's axis refused; K = 0 (onnx/onnx#8478), LayerNormalization's axis = r
    # (onnx/onnx#8466) and GatherND's batch_dims = -1 (onnx/onnx#8465) accepted
    assert accepted == {("topk-k-zero", "topk"), ("axis-past-end", "ln"), ("batch-dims-negative", "gnd")}
    with registry.registered(inference_probes.ORACLE):  # opt-in: not among the built-in oracles
        cells = {c.form: c for c in evaluate(Subject("probes/ranges", {"common": m}, [{}]), [INPUT])}
    assert "inference_probes" not in registry.BUILTIN
    found = cells["common"].findings
    got = {(f.details["probe"], f.details["site"]) for f in found if f.oracle == "inference_probes"}
    assert got == accepted


def test_a_planted_strict_inference_refusing_every_range_gives_no_finding_and_a_lax_one_gives_all():
    m = _model()
    broken = {p.model.SerializeToString() for p in inference_probes.probes(m)}

    def strict(model, full_check=False):  # refuses each broken copy, accepts the form
        return "refused" if model.SerializeToString() in broken else None

    assert inference_probes.check(_run(m, strict)) == []

    def lax(model, full_check=False):  # onnx's inference without any range check
        return None

    found = inference_probes.check(_run(m, lax))
    assert [(f.kind, f.details["probe"]) for f in found] == [
        ("validity-disagreement", "axis-past-end"),
        ("validity-disagreement", "topk-k-zero"),
        ("validity-disagreement", "axis-past-end"),
        ("validity-disagreement", "batch-dims-negative"),
    ]
    assert "rule topk-k-positive" in found[1].message and "K = [0]" in found[1].message


def test_no_probe_where_no_range_is_broken_or_the_form_is_refused():
    relu = helper.make_model(
        helper.make_graph(
            [helper.make_node("Relu", ["x"], ["y"])],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
        ),
        opset_imports=[helper.make_opsetid("", 18)],
    )
    assert inference_probes.probes(relu) == []
    assert inference_probes.check(_run(_model(), lambda model, full_check=False: "refused")) == []
    assert len(inference_probes.probes(_model(), limit=2)) == 2
