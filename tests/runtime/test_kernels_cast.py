"""``passcheck.runtime.kernels.runs_on_cpu`` against real onnxruntime sessions: a node whose float16 is on an input
and has only a float kernel runs (onnxruntime's InsertCastTransformer casts around it: float16 Add-14 on 1.32.0);
float16 on outputs only gets no cast and no run; and the generator builds the element variants that fallback runs
(round 13g, M198)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper

from passcheck.runtime.kernels import has_cpu_kernel, runs_on_cpu

ort = pytest.importorskip("onnxruntime")


def _runs(nodes, inputs, outputs, feeds, opset: int) -> bool:
    graph = helper.make_graph(nodes, "g", inputs, outputs)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    onnx.checker.check_model(model, full_check=True)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    try:
        ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)
    except Exception:  # noqa: BLE001 - NOT_IMPLEMENTED: no kernel and no cast for the node
        return False
    return True


def _v(name, elem, shape):
    return helper.make_tensor_value_info(name, elem, shape)


def test_float16_add_14_runs_through_the_float_kernel_and_the_registry_lists_none():
    half = {"T": "tensor(float16)"}
    assert has_cpu_kernel("", "Add", 14, half) is False  # the registry's word: no float16 Add-14
    ones = np.ones(2, np.float16)
    real = _runs(
        [helper.make_node("Add", ["a", "b"], ["y"])],
        [_v("a", T.FLOAT16, [2]), _v("b", T.FLOAT16, [2])],
        [_v("y", T.FLOAT16, [2])],
        {"a": ones, "b": ones},
        14,
    )
    assert real and runs_on_cpu("", "Add", 14, half) is True


def test_float16_on_an_output_only_gets_no_cast():
    # EyeLike-22: T1 the input (float), T2 the output (float16 by dtype): no float16 input, no Cast, no kernel
    types = {"T1": "tensor(float)", "T2": "tensor(float16)"}
    node = helper.make_node("EyeLike", ["x"], ["y"], dtype=T.FLOAT16)
    real = _runs(
        [node], [_v("x", T.FLOAT, [2, 2])], [_v("y", T.FLOAT16, [2, 2])], {"x": np.ones((2, 2), np.float32)}, 22
    )
    assert real is False and runs_on_cpu("", "EyeLike", 22, types) is False
    # the same op with its float16 on the input: cast around the float kernel
    types = {"T1": "tensor(float16)", "T2": "tensor(float)"}
    node = helper.make_node("EyeLike", ["x"], ["y"], dtype=T.FLOAT)
    real = _runs(
        [node], [_v("x", T.FLOAT16, [2, 2])], [_v("y", T.FLOAT, [2, 2])], {"x": np.ones((2, 2), np.float16)}, 22
    )
    assert real == runs_on_cpu("", "EyeLike", 22, types)


def test_the_generator_offers_where_float16_and_it_runs():
    from passcheck.generate import elem_variants, recipe

    schema = onnx.defs.get_schema("Where", 16)
    node = recipe.build_node(schema, 16)
    assert ("T", "float16") in elem_variants.choices(node)
    c = np.array([True, False])
    real = _runs(
        [helper.make_node("Where", ["c", "a", "b"], ["y"])],
        [_v("c", T.BOOL, [2]), _v("a", T.FLOAT16, [2]), _v("b", T.FLOAT16, [2])],
        [_v("y", T.FLOAT16, [2])],
        {"c": c, "a": np.ones(2, np.float16), "b": np.zeros(2, np.float16)},
        16,
    )
    assert real
