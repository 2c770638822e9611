"""One dim of a fed input declared 1 where broadcasting absorbs it (:mod:`passcheck.hunt.vary_inputs`,
``input-dim-one``; Broadcasting.md: an operand's size 1 stretches to the other's). Judged with real onnx shape
inference and onnxruntime runs, and with onnxscript's own ``onnx_fusions.fuse`` (``onnxscript:onnx-fusions``) on the
rotary base, whose fused RotaryEmbedding-23 takes caches of shape ``[batch, sequence, head / 2]`` only: the base
declares the frequencies at that shape, where the fusion is right."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.cases import registry
from passcheck.hunt import variation, vary_inputs
from passcheck.hunt.probe import Setting

sys.path.insert(0, str(Path(__file__).parent))
from conftest import declared_dims  # noqa: E402
from conftest import run_unoptimized as _run  # noqa: E402

ROTARY = "pattern-onnxscript-onnx-fusions/rotary"


def _rotary():
    return next(c for c in registry() if c.id == ROTARY).build("common")


def _add_model():
    """``y = Add(a, b)``, ``a: float[N, 3]``, ``b: float[N, 3]``; ``z = Relu(a)`` reads ``a`` alone."""
    vi = helper.make_tensor_value_info
    nodes = [helper.make_node("Add", ["a", "b"], ["y"]), helper.make_node("Relu", ["a"], ["z"])]
    graph = helper.make_graph(
        nodes,
        "g",
        [vi("a", TensorProto.FLOAT, ["N", 3]), vi("b", TensorProto.FLOAT, ["N", 3])],
        [vi("y", TensorProto.FLOAT, ["N", 3]), vi("z", TensorProto.FLOAT, ["N", 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def test_only_dims_the_broadcast_absorbs_are_sites():
    # a's dims reach z through Relu alone: a 1 there changes z's shape; b's are absorbed by a's in the Add.
    assert vary_inputs.one_sites(_add_model()) == ["b=0", "b=1"]
    one = _add_model()
    del one.graph.input[1]
    one.graph.node[0].input[1] = "a"
    assert vary_inputs.one_sites(one) == []  # a single fed input: nothing else holds the size
    assert {"f=0", "f=1"} <= set(vary_inputs.one_sites(_rotary()))  # the table shared by the batch, the sequence


def test_the_neighbour_is_valid_declares_the_1_and_computes_the_broadcast():
    model = _add_model()
    neighbour, labels = variation.build(model, "vary:input-dim-one@b=0")
    assert labels == ["b"]
    assert "y" in variation.site_labels(model, "vary:input-dim-one@b=0")  # the values the declared 1 reaches
    onnx.checker.check_model(neighbour, full_check=True)
    assert declared_dims(neighbour.graph.input[1]) == [1, 3]
    assert declared_dims(neighbour.graph.output[0]) == ["N", 3]  # the outputs keep their shapes
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([[10.0, 20.0, 30.0]], np.float32)
    y, _ = _run(neighbour, {"a": a, "b": b})
    np.testing.assert_array_equal(y, a + b)
    assert declared_dims(model.graph.input[1]) == ["N", 3]  # the base is never modified
    forms = set(variation.neighbours(_rotary(), random.Random(0)))
    assert {"vary:input-dim-one@f=0", "vary:input-dim-one@f=1"} & forms, sorted(f for f in forms if "input" in f)


def test_a_case_feed_is_sliced_to_the_declared_1():
    def own(binding, seed):
        return {"a": np.ones((2, 3), np.float32), "b": np.arange(6, dtype=np.float32).reshape(2, 3)}

    feeds = vary_inputs.setting(Setting("t", feeds=own), vary_inputs.ONE, "b=0").feeds({}, 0)
    np.testing.assert_array_equal(feeds["b"], [[0.0, 1.0, 2.0]])


@pytest.mark.parametrize("site", ["f=0", "f=1"])
def test_the_rotary_fusion_is_right_on_the_base_and_found_on_the_broadcast_table(inproc_executor, site):
    from passcheck.engine import Subject, evaluate
    from passcheck.hunt import vary_probe
    from passcheck.passes import get_pass

    if why := get_pass("onnxscript:onnx-fusions").why_not(_rotary()):
        pytest.skip(why)
    base = _rotary()
    cells = evaluate(
        Subject(id=ROTARY, forms={"common": base}, bindings=[{"B": 2, "S": 3}]),
        ["onnxscript:onnx-fusions"],
        executor=inproc_executor,
    )
    assert not [f for c in cells for f in c.findings], cells  # at [B, S, 4] the fused op is right
    form = f"vary:input-dim-one@{site}"
    out = vary_probe.judge(
        Setting(ROTARY, bindings=({"B": 2, "S": 3},)), base, form, "onnxscript:onnx-fusions", inproc_executor
    )
    assert out.status == "done", out
    assert {f.oracle for f in out.findings} & {"numeric", "validity"}, out.findings
