"""onnxruntime 1.32.0's transformer optimizer (`OnnxModel.get_constant_value`, `transformers/onnx_model.py`, which
FusionGelu, FusionQuickGelu … read their constants with) on an erf-GELU whose divisor `sqrt2` is an initializer that
is also a graph input: from IR version 4 such an initializer is only a default the caller may feed (IR.md, "Graphs":
an initializer with the name of a graph input gives that input's default). `get_constant_value` returns the initializer
whatever the graph inputs say, the fusion writes `Gelu(x)` and `prune_graph` drops the `sqrt2` input: a fed `sqrt2`
is refused by the optimized model, and without it the result no longer follows the graph. onnxruntime's own
optimizer does not fold such an initializer ("will not be treated as constant value/weight"). Exit 1 while the bug is
present."""

import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

nodes = [
    helper.make_node("Div", ["x", "sqrt2"], ["d"]),
    helper.make_node("Erf", ["d"], ["e"]),
    helper.make_node("Add", ["e", "one"], ["a"]),
    helper.make_node("Mul", ["x", "a"], ["m"]),
    helper.make_node("Mul", ["m", "half"], ["y"]),
]
consts = {"sqrt2": 1.4142099618911743, "one": 1.0, "half": 0.5}
graph = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [8]), helper.make_tensor_value_info("sqrt2", 1, [])],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [8])],
    [numpy_helper.from_array(np.array(v, np.float32), k) for k, v in consts.items()],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)
feeds = {"x": np.linspace(-2, 2, 8, dtype=np.float32), "sqrt2": np.array(1.0, np.float32)}


def run(m, f):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, f)[0]


expected = run(model, feeds)
optimized = optimize_model(
    onnx.ModelProto.FromString(model.SerializeToString()), "bert", num_heads=0, hidden_size=0, opt_level=0
)
with tempfile.TemporaryDirectory() as d:
    optimized.save_model_to_file(d + "/o.onnx")  # adds the com.microsoft import
out = optimized.model
inputs = [i.name for i in out.graph.input]
print([n.op_type for n in out.graph.node], "inputs", inputs)
if "sqrt2" not in inputs:
    err = float(np.max(np.abs(run(out, {"x": feeds["x"]}) - expected)))
    print("BUG: the overridable sqrt2 was baked in and its graph input dropped; fed 1.0, max abs err", err)
    sys.exit(1)
print("ok")
