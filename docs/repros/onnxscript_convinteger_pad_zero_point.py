"""onnxscript 0.7.2 rewrite() (rule FuseConvIntegerPad, rewriter/rules/common/_fuse_pad_into_conv.py) folds
Pad(x, pads, 0) into ConvInteger's `pads` without reading ConvInteger's x_zero_point. ConvInteger computes on
x - x_zero_point, so a value the Pad writes (0) is -x_zero_point there, while the padding ConvInteger adds
itself is x_zero_point (0 after the subtraction; onnx.reference and onnxruntime agree on both models).
With x_zero_point = 3 the border outputs change. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxscript.rewriter
from onnx import helper, numpy_helper

rng = np.random.default_rng(0)
graph = helper.make_graph(
    [
        helper.make_node("Pad", ["x", "pads"], ["p"], mode="constant"),
        helper.make_node("ConvInteger", ["p", "w", "x_zero_point"], ["y"]),
    ],
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.UINT8, [1, 2, 4, 4])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.INT32, [1, 2, 4, 4])],
    [
        numpy_helper.from_array(rng.integers(0, 5, (2, 2, 3, 3)).astype(np.uint8), "w"),
        numpy_helper.from_array(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64), "pads"),
        numpy_helper.from_array(np.array(3, np.uint8), "x_zero_point"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = onnxscript.rewriter.rewrite(model)
print([(n.op_type, [(a.name, helper.get_attribute_value(a)) for a in n.attribute]) for n in out.graph.node])
x = rng.integers(0, 10, (1, 2, 4, 4)).astype(np.uint8)


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


want, got = run(model), run(out)
if not np.array_equal(want, got):
    print("BUG:", int((want != got).sum()), "of", want.size, "elements differ; row 0:", want[0, 0, 0], "vs", got[0, 0, 0])
    sys.exit(1)
print("ok")
