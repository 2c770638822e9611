"""onnxruntime CommonSubexpressionElimination (ORT_ENABLE_BASIC) merges two identical Convs on the same
inputs, but not when one of them writes an attribute at the default its operator doc states
(pads = [0, 0, 0, 0], strides = [1, 1]) and the other leaves it out: the two compute the same thing
(ONNX Conv-11: pads "defaults to 0", strides "defaults is 1"), only the spelling differs."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper


def model(second_attrs):
    w = numpy_helper.from_array(np.random.default_rng(0).standard_normal((2, 3, 3, 3)).astype(np.float32), "w")
    nodes = [
        h.make_node("Conv", ["x", "w"], ["a"], name="c1", kernel_shape=[3, 3]),
        h.make_node("Conv", ["x", "w"], ["b"], name="c2", kernel_shape=[3, 3], **second_attrs),
        h.make_node("Add", ["a", "b"], ["y"]),
    ]
    g = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, [1, 3, 6, 6])],
        [h.make_tensor_value_info("y", T.FLOAT, [1, 2, 4, 4])],
        [w],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 13)])
    onnx.checker.check_model(m, full_check=True)
    return m


def optimized_convs(m):
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    so.optimized_model_filepath = "/tmp/_cse_opt.onnx"
    s = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    y = s.run(None, {"x": np.ones((1, 3, 6, 6), np.float32)})[0]
    return sum(n.op_type == "Conv" for n in onnx.load("/tmp/_cse_opt.onnx").graph.node), y


print("onnxruntime", ort.__version__)
base, y0 = optimized_convs(model({}))
missed = False
for attrs in ({"pads": [0, 0, 0, 0]}, {"strides": [1, 1]}, {"dilations": [1, 1]}):
    n, y = optimized_convs(model(attrs))
    missed |= n > base
    print(
        f"second Conv with {attrs}: Convs after basic = {n} (both omitted: {base}); same values: {np.allclose(y, y0)}"
    )
import sys

sys.exit(1 if missed else 0)
