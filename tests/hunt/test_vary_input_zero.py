"""One dim of a fed input declared 0 beside a kept symbol (:mod:`passcheck.hunt.vary_inputs`, ``input-dim-zero``;
IR.md "Tensor shapes": a ``dim_value`` of 0 is valid). Judged with the real checker, onnx shape inference,
onnxruntime runs and onnxscript's own ``rewrite`` (``onnxscript:rewrite``) on ``y = Reshape(x, Shape(x))``: at
``x: float[N, 8]`` its constant shape is right, at ``float[N, 0]`` it holds ``-1`` beside ``0`` with ``allowzero``
set, which Operators.md Reshape forbids (docs/found.md row 848)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.hunt import variation, vary_inputs
from passcheck.hunt.probe import Setting

sys.path.insert(0, str(Path(__file__).parent))
from conftest import declared_dims  # noqa: E402
from conftest import run_unoptimized as _run  # noqa: E402

FORM = "vary:input-dim-zero@x=1"


def _reshape_model(second=8):
    """``y = Reshape(x, Shape(x))``, ``x, y: float[N, second]``; ``b: float[M]`` feeds ``z = Relu(b)``."""
    vi = helper.make_tensor_value_info
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Reshape", ["x", "s"], ["y"]),
        helper.make_node("Relu", ["b"], ["z"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [vi("x", TensorProto.FLOAT, ["N", second]), vi("b", TensorProto.FLOAT, ["M"])],
        [vi("y", TensorProto.FLOAT, ["N", second]), vi("z", TensorProto.FLOAT, ["M"])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def test_sites_are_dims_beside_a_kept_symbol():
    # x=0 (N, declared by x alone) and x=1 (static 8) each keep the other dim symbolic only for x=1: x=0's other dim
    # is static; b's only dim has no symbol beside it.
    assert vary_inputs.zero_sites(_reshape_model()) == ["x=1"]
    assert vary_inputs.zero_sites(_reshape_model(second="K")) == ["x=0", "x=1"]
    shared = _reshape_model(second="K")
    shared.graph.input[1].type.tensor_type.shape.dim[0].dim_param = "K"  # K now declared by two inputs
    assert vary_inputs.zero_sites(shared) == ["x=0"]
    mm = helper.make_model(
        helper.make_graph(
            [helper.make_node("MatMul", ["x", "w"], ["y"])],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
            [helper.make_tensor("w", TensorProto.FLOAT, [4, 3], np.zeros(12, np.float32))],
        ),
        opset_imports=[helper.make_opsetid("", 18)],
    )
    assert vary_inputs.zero_sites(mm) == []  # MatMul's inner dims 0 and 4: onnx shape inference refuses it


def test_the_neighbour_is_valid_declares_the_0_keeps_the_symbol_and_runs():
    model = _reshape_model()
    neighbour, labels = variation.build(model, FORM)
    assert labels == ["x"]
    assert "y" in variation.site_labels(model, FORM)  # the values the declared 0 reaches
    onnx.checker.check_model(neighbour, full_check=True)
    assert declared_dims(neighbour.graph.input[0]) == ["N", 0]
    assert declared_dims(neighbour.graph.output[0]) == ["N", 0]  # the annotation follows, the symbol kept
    assert declared_dims(model.graph.input[0]) == ["N", 8]  # the base is never modified
    y, _ = _run(neighbour, {"x": np.zeros((3, 0), np.float32), "b": np.ones(2, np.float32)})
    assert y.shape == (3, 0)
    assert FORM in variation.neighbours(model, random.Random(0))


def test_a_case_feed_is_emptied_along_the_axis():
    def own(binding, seed):
        return {"x": np.ones((2, 8), np.float32), "b": np.ones(3, np.float32)}

    feeds = vary_inputs.setting(Setting("t", feeds=own), vary_inputs.ZERO, "x=1").feeds({}, 0)
    assert feeds["x"].shape == (2, 0) and feeds["x"].dtype == np.float32
    assert feeds["b"].shape == (3,)


def test_onnxscript_rewrite_is_right_on_the_base_and_found_on_the_neighbour(inproc_executor):
    from passcheck.engine import Subject, evaluate
    from passcheck.hunt import vary_probe
    from passcheck.passes import get_pass

    base = _reshape_model()
    if why := get_pass("onnxscript:rewrite").why_not(base):
        pytest.skip(why)
    bindings = {"N": 2, "M": 3}
    cells = evaluate(
        Subject(id="t/reshape-shape", forms={"common": base}, bindings=[bindings]),
        ["onnxscript:rewrite"],
        executor=inproc_executor,
    )
    assert not [f for c in cells for f in c.findings if f.oracle in ("numeric", "validity")], cells
    setting = Setting("t/reshape-shape", bindings=(bindings,))
    out = vary_probe.judge(setting, base, FORM, "onnxscript:rewrite", inproc_executor)
    assert out.status == "done", out
    assert {f.oracle for f in out.findings} & {"numeric", "validity"}, out.findings


def test_an_annotation_left_unknown_is_given_the_zero_it_now_holds():
    # data-prop/reshape-flatten declares y: float[?, ?]; behind Reshape(x, Concat(N, d1 * d2)) the 0 of x's dim 1 is
    # the product's, which inference reaches only by propagating the shape's values.
    from passcheck.cases import registry

    base = next(c for c in registry() if c.id == "data-prop/reshape-flatten").build("common")
    neighbour, _ = variation.build(base, FORM)
    y = next(o for o in neighbour.graph.output if o.name == "y")
    assert declared_dims(y)[1] == 0 and not y.type.tensor_type.shape.dim[0].HasField("dim_value")
    onnx.checker.check_model(neighbour, full_check=True)
    assert declared_dims(next(o for o in base.graph.output if o.name == "y"))[1] != 0  # the base untouched
