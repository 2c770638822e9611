"""Output-twin neighbours (:mod:`passcheck.hunt.vary_twin_output`): a graph output computed a second time by
copies of its nodes that read the same constants, judged with real onnxruntime runs.

A planted fold that multiplies a MatMul's weight initializer by the scale of the Mul after it, writing the result
under the weight's own name, is right on every base that reads the weight once; on the twin the second match
reads the folded weight and folds the scale again (what onnxscript 0.5.4 / 0.6.2's BatchNorm fusion did to two
Conv + BatchNormalization pairs sharing one weight, microsoft/onnxscript#2883; docs/recall.md R37). The same fold
that asks whether the weight has other readers gives no finding.
"""

from __future__ import annotations

import random

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_probe, vary_twin_output
from tests.hunt.conftest import judge_planted


def _fold_scale(checked: bool):
    """``Mul(MatMul(x, w), s)``, ``w`` and ``s`` initializers → ``MatMul(x, w)`` with ``w`` replaced by ``w * s``
    under its own name; ``checked``: only where the MatMul is ``w``'s one reader."""

    def rewrite(model: onnx.ModelProto) -> onnx.ModelProto:
        g = model.graph
        inits = {t.name: t for t in g.initializer}
        producer = {v: n for n in g.node for v in n.output}
        for mul in list(g.node):
            mm = producer.get(mul.input[0]) if mul.op_type == "Mul" else None
            if mm is None or mm.op_type != "MatMul" or mm.input[1] not in inits or mul.input[1] not in inits:
                continue
            w = mm.input[1]
            if checked and sum(v == w for n in g.node for v in n.input) != 1:
                continue
            folded = numpy_helper.to_array(inits[w]) * numpy_helper.to_array(inits[mul.input[1]])
            inits[w].CopyFrom(numpy_helper.from_array(folded.astype(np.float32), w))
            mm.output[0] = mul.output[0]
            g.node.remove(mul)
        return model

    return rewrite


def _base() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    inits = [
        numpy_helper.from_array(np.arange(12, dtype=np.float32).reshape(3, 4) / 10, "w"),
        numpy_helper.from_array(np.array([0.5, 2.0, -1.0, 3.0], np.float32), "s"),
    ]
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"], name="mm"),
        helper.make_node("Mul", ["m", "s"], ["y"], name="scale"),
    ]
    graph = helper.make_graph(nodes, "scaled", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _judge(form: str, checked: bool, executor):
    """``form``'s neighbour of :func:`_base` judged under the planted fold (checked or in place)."""
    pid = f"planted:fold-scale-{'checked' if checked else 'in-place'}"
    return judge_planted("vary-test/twin", _base(), form, pid, _fold_scale(checked), executor)


def test_the_twin_copies_the_nodes_that_read_inputs_and_shares_every_constant():
    base = _base()
    assert "vary:twin-output@y" in variation.neighbours(base, random.Random(0))
    twin, labels = variation.build(base, "vary:twin-output@y")
    assert labels == ["y"] and [o.name for o in twin.graph.output] == ["y", "y__twin_out"]
    copies = twin.graph.node[2:]
    assert [(n.op_type, list(n.input)) for n in copies] == [("MatMul", ["x", "w"]), ("Mul", ["m__twin_out", "s"])]
    assert [t.name for t in twin.graph.initializer] == ["w", "s"]  # shared, not copied
    onnx.checker.check_model(twin, full_check=True)
    assert vary_twin_output.added("twin-output", "y") == 1
    assert [o.name for o in base.graph.output] == ["y"]  # the base is never modified


def test_an_output_of_constants_alone_or_of_inputs_alone_is_no_site():
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    c = helper.make_tensor_value_info("c", TensorProto.FLOAT, [2])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    nodes = [helper.make_node("Neg", ["k"], ["c"]), helper.make_node("Relu", ["x"], ["y"])]
    inits = [numpy_helper.from_array(np.ones(2, np.float32), "k")]
    model = helper.make_model(helper.make_graph(nodes, "g", [x], [y, c], inits))
    assert list(vary_twin_output.candidates(model)) == []


def test_a_fold_that_rewrites_a_shared_weight_in_place_is_found_through_the_twin(inproc_executor):
    out = _judge("vary:twin-output@y", checked=False, executor=inproc_executor)
    assert out.status == "done", out
    assert ("numeric", "wrong-result") in {(f.oracle, f.kind) for f in out.findings}, out.findings


def test_the_fold_that_asks_for_other_readers_gives_no_finding(inproc_executor):
    out = _judge("vary:twin-output@y", checked=True, executor=inproc_executor)
    assert out.status == "done" and out.findings == [], out


def test_the_twins_appended_output_keeps_the_interface_a_neighbour_must_keep():
    """``hunt`` (:func:`.vary_probe.invalid`) and ``hunt --env`` (:mod:`.env_vary`) ask the same rule: the base's
    inputs and outputs, then the outputs the kind appends (the twin: one; another kind: none)."""
    base = _base()
    twin, _ = variation.build(base, "vary:twin-output@y")
    assert not vary_probe.interface_changed(base, twin, "vary:twin-output@y")
    assert vary_probe.interface_changed(base, twin, "vary:value-zero@s")
    assert not vary_probe.interface_changed(base, base, "vary:value-zero@s")
