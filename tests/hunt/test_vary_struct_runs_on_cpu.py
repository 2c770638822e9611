"""M263 (round 15e): ``fanout``'s reader is one that runs on onnxruntime's CPU provider, as the generator and the
rewrites ask (:func:`passcheck.runtime.kernels.node_runs_on_cpu`): a float16 value, for which no reader has a float16
kernel, is read by Neg on its float kernel (onnxruntime's InsertCastTransformer casts around it)."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper

from passcheck.hunt import variation, vary_struct
from passcheck.runtime import run_ort
from passcheck.runtime.kernels import node_has_cpu_kernel


def _float16_model() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2, 3])
    nodes = [helper.make_node("Relu", ["x"], ["r"], name="relu"), helper.make_node("Abs", ["r"], ["y"], name="abs")]
    return helper.make_model(helper.make_graph(nodes, "g", [x], [y]), opset_imports=[helper.make_opsetid("", 17)])


def test_a_float16_value_gets_a_fanout_reader_that_runs():
    model = _float16_model()
    neg = helper.make_node("Neg", ["x"], ["y"])
    assert not node_has_cpu_kernel(neg, onnx.defs.get_schema("Neg", 17, ""), lambda _v: TensorProto.FLOAT16)
    types = variation._inferred(model)
    assert ("fanout", "r") in set(vary_struct.candidates(model, types))
    assert vary_struct.build(model, "fanout", "r", types)
    assert model.graph.node[-1].op_type == "Neg"
    onnx.checker.check_model(model, full_check=True)
    x = np.array([[-1.5, 0, 2], [3, -4, 0.5]], np.float16)
    rr = run_ort(model, {"x": x})
    assert rr.error is None, rr.error
    got = rr.outputs[model.graph.output[-1].name]
    assert got.dtype == np.float16 and np.array_equal(got, -np.maximum(x, 0))
