"""onnxruntime 1.32.0's float16 converter (`onnxruntime.transformers.float16.convert_float_to_float16`,
`transformers/float16.py`) on `y = If(cond)` whose two branches each hold a float initializer named `c`: the
converter keeps one dict of float initializers, keyed by name, for the main graph and every subgraph together, and
asserts that no name repeats (`assert n.name not in fp32_initializers`). IR.md §Graphs ("Names Within a Graph"):
names are unique within a graph; the then- and else-branches are two graphs, so the model is valid (the full checker
accepts it and onnxruntime runs it). Exit 1 while the converter raises."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.transformers.float16 import convert_float_to_float16


def branch(name, values):
    return helper.make_graph(
        [],
        name,
        [],
        [helper.make_tensor_value_info("c", TensorProto.FLOAT, [3])],
        [numpy_helper.from_array(np.array(values, np.float32), "c")],
    )


g = helper.make_graph(
    [
        helper.make_node(
            "If", ["cond"], ["y"], then_branch=branch("then", [1, 2, 3]), else_branch=branch("else", [4, 5, 6])
        )
    ],
    "g",
    [helper.make_tensor_value_info("cond", TensorProto.BOOL, [])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3])],
)
model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
print(
    "onnxruntime:",
    ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(
        None, {"cond": np.array(False)}
    )[0],
)
try:
    out = convert_float_to_float16(model)
except AssertionError:
    print("BUG: convert_float_to_float16 raised AssertionError (two subgraphs each with an initializer named 'c')")
    sys.exit(1)
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(
    None, {"cond": np.array(False)}
)[0]
print("converted:", got)
sys.exit(0 if np.allclose(got.astype(np.float32), [4, 5, 6]) else 1)
