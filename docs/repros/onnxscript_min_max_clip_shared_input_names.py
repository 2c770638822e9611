"""onnxscript 0.7.2 rewrite() (rules FuseMaxMinToClip / FuseMinMaxToClip, rewriter/rules/common/_min_max_to_clip.py)
names each fused bound initializer after the match's input, `f"{x.name}_min"` / `_max`. Two clips of one graph input x
(IR.md: any number of nodes may read one value) give two initializers of one name; the rule set's registration
(`rewriter/_rewrite_rule.py`) overwrites the first in the graph's initializer table: in 0.7.2 one Clip then reads a
value no initializer holds (the checker and onnxruntime refuse the model). Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxscript.rewriter
from onnx import helper, numpy_helper

vi = lambda name: helper.make_tensor_value_info(name, onnx.TensorProto.FLOAT, [2, 3])  # noqa: E731
graph = helper.make_graph(
    [
        helper.make_node("Max", ["x", "lo"], ["t"]),
        helper.make_node("Min", ["t", "hi"], ["y"]),
        helper.make_node("Max", ["x", "lo2"], ["t2"]),
        helper.make_node("Min", ["t2", "hi2"], ["z"]),
    ],
    "g",
    [vi("x")],
    [vi("y"), vi("z")],
    [
        numpy_helper.from_array(np.array(-0.5, np.float32), "lo"),
        numpy_helper.from_array(np.array(0.5, np.float32), "hi"),
        numpy_helper.from_array(np.array(-0.25, np.float32), "lo2"),
        numpy_helper.from_array(np.array(0.25, np.float32), "hi2"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(model, full_check=True)  # the input is valid
out = onnxscript.rewriter.rewrite(model)
print([(n.op_type, list(n.input)) for n in out.graph.node], [t.name for t in out.graph.initializer])
problems = []
try:
    onnx.checker.check_model(out, full_check=True)
except Exception as exc:  # noqa: BLE001 - the checker names the value no initializer holds
    problems.append(" ".join(str(exc).split())[:160])
x = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
run = lambda m: ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})  # noqa: E731
want = run(model)
try:
    got = run(out)
    problems += [
        f"{name} {g.ravel()} where {w.ravel()}" for name, g, w in zip("yz", got, want) if not np.array_equal(g, w)
    ]
except Exception as exc:  # noqa: BLE001 - onnxruntime refuses the graph
    problems.append(" ".join(str(exc).split())[:160])
if problems:
    print("BUG:", *problems, sep="\n  ")
    sys.exit(1)
print("ok")
