"""onnxruntime's QDQFinalCleanupTransformer (ORT_ENABLE_EXTENDED) aborts on a DequantizeLinear -> QuantizeLinear
pair whose output is read only inside an If's branches (an implicit input of the If node).

Model (opset 17): a = Q(x, s, z); b = DQ(a, s, z); c = Q(b, s, z); y = If(cond){Neg(DQ(c, s, z))}{same}.
The b -> c pair has equal scale and zero point, so the cleanup removes it and rewires c's consumers; the consumer
is the If, whose edge index points past its explicit inputs. IR.md §Graphs lets a subgraph read any value of an
outer scope. Each session is created in a child process. Exits 1 while the bug is there, 0 when fixed."""

import subprocess
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model() -> onnx.ModelProto:
    def branch(tag):
        return helper.make_graph(
            [
                helper.make_node("DequantizeLinear", ["c", "s", "z"], [f"d_{tag}"]),
                helper.make_node("Neg", [f"d_{tag}"], [f"y_{tag}"]),
            ],
            tag,
            [],
            [helper.make_tensor_value_info(f"y_{tag}", TensorProto.FLOAT, ["N", 8])],
        )

    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["a"]),
        helper.make_node("DequantizeLinear", ["a", "s", "z"], ["b"]),
        helper.make_node("QuantizeLinear", ["b", "s", "z"], ["c"]),
        helper.make_node("If", ["cond"], ["y"], then_branch=branch("then"), else_branch=branch("else")),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8]),
            helper.make_tensor_value_info("cond", TensorProto.BOOL, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 8])],
        [
            numpy_helper.from_array(np.array(0.04, np.float32), "s"),
            numpy_helper.from_array(np.array(128, np.uint8), "z"),
        ],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


CHILD = r"""
import sys, numpy as np, onnxruntime as ort
so = ort.SessionOptions()
so.graph_optimization_level = getattr(ort.GraphOptimizationLevel, sys.argv[1])
s = ort.InferenceSession(sys.stdin.buffer.read(), so, providers=["CPUExecutionProvider"])
x = np.linspace(-3, 3, 16, dtype=np.float32).reshape(2, 8)
print(s.run(None, {"x": x, "cond": np.array(True)})[0].ravel()[:4].tolist())
"""

if __name__ == "__main__":
    m = model()
    onnx.checker.check_model(m, full_check=True)
    import onnxruntime

    print("onnx", onnx.__version__, "onnxruntime", onnxruntime.__version__)
    codes = {}
    for level in ("ORT_DISABLE_ALL", "ORT_ENABLE_BASIC", "ORT_ENABLE_EXTENDED"):
        p = subprocess.run([sys.executable, "-c", CHILD, level], input=m.SerializeToString(), capture_output=True)
        codes[level] = p.returncode
        print(level, "exit", p.returncode, (p.stdout or p.stderr).decode(errors="replace").strip().splitlines()[-1:])
    if codes["ORT_DISABLE_ALL"] != 0:
        print("premise failed: the unoptimized session does not run")
        sys.exit(2)
    if codes["ORT_ENABLE_EXTENDED"] != 0:
        print("BUG: session creation at ORT_ENABLE_EXTENDED fails on a valid model (QDQFinalCleanupTransformer)")
        sys.exit(1)
    sys.exit(0)
