"""onnxruntime 1.32.0 (also 1.31.1, 1.30.0, 1.25.1, 1.22.1, 1.18.1) aborts creating a session at ORT_ENABLE_BASIC
for a valid opset-13 model: d = DequantizeLinear(QuantizeLinear(x, s, z), s, z), t = Transpose(d), and t read only
inside the branches of an If, y = If(c){Neg(t)}{Neg(t)} (IR.md: a subgraph may read any value of an outer scope;
onnxruntime lists it among the If node's implicit inputs). QDQPropagationTransformer moves the DequantizeLinear past
the Transpose and indexes the If's explicit inputs with the edge's slot: "Assertion '__n < this->size()' failed",
the process is killed by SIGABRT. With QDQPropagationTransformer disabled, or t read by a main-graph node, it runs.
Each session is created in a child process (the abort kills the process). Exit 1 while the bug is present."""

import subprocess
import sys

CHILD = r"""
import sys
import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

def branch(name):
    return helper.make_graph(
        [helper.make_node("Neg", ["t"], [f"y_{name}"])], name, [],
        [helper.make_tensor_value_info(f"y_{name}", TensorProto.FLOAT, None)],
    )

graph = helper.make_graph(
    [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["d"]),
        helper.make_node("Transpose", ["d"], ["t"], perm=[1, 0]),
        helper.make_node("If", ["c"], ["y"], then_branch=branch("then"), else_branch=branch("else")),
    ],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3]), helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 2])],
    [numpy_helper.from_array(np.array(0.5, np.float32), "s"), numpy_helper.from_array(np.array(128, np.uint8), "z")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
onnx.checker.check_model(model, full_check=True)
so = ort.SessionOptions()
so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, sys.argv[1])
disabled = sys.argv[2:]
sess = ort.InferenceSession(model.SerializeToString(), so, ["CPUExecutionProvider"], disabled_optimizers=disabled)
x = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
print(sess.run(None, {"x": x, "c": np.array(True)})[0].ravel().tolist())
"""

codes = {}
for args in (["ORT_DISABLE_ALL"], ["ORT_ENABLE_BASIC"], ["ORT_ENABLE_BASIC", "QDQPropagationTransformer"]):
    done = subprocess.run([sys.executable, "-c", CHILD, *args], capture_output=True, text=True, timeout=300)
    codes[tuple(args)] = done.returncode
    tail = (done.stdout.strip() or (done.stderr.strip().splitlines() or [""])[-1])[-200:]
    print(" ".join(args), "exit", done.returncode, tail)
ok = codes[("ORT_DISABLE_ALL",)] == 0
sys.exit(1 if ok and codes[("ORT_ENABLE_BASIC",)] != 0 else 0)
