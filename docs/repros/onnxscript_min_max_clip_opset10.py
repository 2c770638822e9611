"""onnxscript 0.7.2 rewrite() (rules FuseMaxMinToClip / FuseMinMaxToClip, rewriter/rules/common/_min_max_to_clip.py)
turns Min(Max(x, lo), hi) into Clip(x, lo, hi) whatever the model's opset: below opset 11 Clip (Clip-6) takes its
bounds as attributes and one input, so the output of an opset-10 model is invalid. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxscript.rewriter
from onnx import helper, numpy_helper

bad = []
for outer, inner in (("Min", "Max"), ("Max", "Min")):
    first, second = ("lo", "hi") if inner == "Max" else ("hi", "lo")
    graph = helper.make_graph(
        [helper.make_node(inner, ["x", first], ["t"]), helper.make_node(outer, ["t", second], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 4])],
        [
            numpy_helper.from_array(np.array(-0.5, np.float32), "lo"),
            numpy_helper.from_array(np.array(0.5, np.float32), "hi"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 10)], ir_version=5)
    onnx.checker.check_model(model, full_check=True)  # the input is valid
    out = onnxscript.rewriter.rewrite(model)
    print(f"{outer}({inner}(x)):", [(n.op_type, list(n.input)) for n in out.graph.node])
    try:
        onnx.checker.check_model(out, full_check=True)
    except onnx.checker.ValidationError as exc:
        bad.append(str(exc).splitlines()[0])
if bad:
    print("BUG:", *bad, sep="\n  ")
    sys.exit(1)
print("ok")
