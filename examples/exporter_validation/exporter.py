"""A model built the way an exporter writes one: a dynamic batch axis as ``dim_param``, torch-style
value names, ``value_info`` on every intermediate, and the flatten written as
``Reshape(x, Concat(Shape(x, end=1), [-1]))`` so the batch stays symbolic (opset 17)."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

BATCH = "batch"
IN, HIDDEN, OUT = 2 * 4 * 4, 16, 10


def _vi(name: str, shape: list) -> onnx.ValueInfoProto:
    return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)


def export_classifier(seed: int = 0) -> onnx.ModelProto:
    """A small image classifier: x ``[batch, 2, 4, 4]`` float32 → probabilities ``[batch, 10]``."""
    r = np.random.default_rng(seed)
    inits = [
        numpy_helper.from_array(r.standard_normal((IN, HIDDEN)).astype(np.float32) * 0.2, "fc1.weight"),
        numpy_helper.from_array(r.standard_normal(HIDDEN).astype(np.float32), "fc1.bias"),
        numpy_helper.from_array(r.standard_normal((HIDDEN, OUT)).astype(np.float32) * 0.2, "fc2.weight"),
        numpy_helper.from_array(r.standard_normal(OUT).astype(np.float32), "fc2.bias"),
        numpy_helper.from_array(np.array([-1], dtype=np.int64), "/flatten/Constant_output_0"),
    ]
    n = helper.make_node
    nodes = [
        n("Shape", ["x"], ["/flatten/Shape_output_0"], name="/flatten/Shape", end=1),
        n(
            "Concat",
            ["/flatten/Shape_output_0", "/flatten/Constant_output_0"],
            ["/flatten/Concat_output_0"],
            name="/flatten/Concat",
            axis=0,
        ),
        n("Reshape", ["x", "/flatten/Concat_output_0"], ["/flatten/Reshape_output_0"], name="/flatten/Reshape"),
        n("MatMul", ["/flatten/Reshape_output_0", "fc1.weight"], ["/fc1/MatMul_output_0"], name="/fc1/MatMul"),
        n("Add", ["/fc1/MatMul_output_0", "fc1.bias"], ["/fc1/Add_output_0"], name="/fc1/Add"),
        n("Relu", ["/fc1/Add_output_0"], ["/relu/Relu_output_0"], name="/relu/Relu"),
        n("MatMul", ["/relu/Relu_output_0", "fc2.weight"], ["/fc2/MatMul_output_0"], name="/fc2/MatMul"),
        n("Add", ["/fc2/MatMul_output_0", "fc2.bias"], ["/fc2/Add_output_0"], name="/fc2/Add"),
        n("Softmax", ["/fc2/Add_output_0"], ["probs"], name="/softmax/Softmax", axis=-1),
    ]
    value_info = [
        _vi("/flatten/Reshape_output_0", [BATCH, IN]),
        _vi("/fc1/MatMul_output_0", [BATCH, HIDDEN]),
        _vi("/fc1/Add_output_0", [BATCH, HIDDEN]),
        _vi("/relu/Relu_output_0", [BATCH, HIDDEN]),
        _vi("/fc2/MatMul_output_0", [BATCH, OUT]),
        _vi("/fc2/Add_output_0", [BATCH, OUT]),
        helper.make_tensor_value_info("/flatten/Shape_output_0", TensorProto.INT64, [1]),
        helper.make_tensor_value_info("/flatten/Concat_output_0", TensorProto.INT64, [2]),
    ]
    graph = helper.make_graph(
        nodes, "classifier", [_vi("x", [BATCH, 2, 4, 4])], [_vi("probs", [BATCH, OUT])], inits, value_info=value_info
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="example-exporter")
    model.ir_version = 8
    return model
