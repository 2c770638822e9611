"""onnxruntime 1.32.0 `onnxruntime.transformers.optimizer.optimize_model(m, "bert")` on a skip layer norm whose
`sum = Add(x, skip)` is in the main graph and whose LayerNormalization(sum, scale, bias) is in both branches of an If
(a subgraph reads outer values, IR.md §Graphs): FusionSkipLayerNormalization matches the Add across the If boundary,
writes `com.microsoft::SkipLayerNormalization(x, skip, scale, bias)` into one branch (with `sum` as its fourth output)
and removes the main graph's Add, though the other branch still reads `sum`; and the model imports no `com.microsoft`
opset. The checker rejects it ("No opset import for domain 'com.microsoft'"; with the import added, `sum` is read
where nothing defines it). The same chain in the main graph is fused and the import added. Exit 1 while present."""

import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.transformers.optimizer import optimize_model

rng = np.random.default_rng(0)


def branch(name):
    ln = helper.make_node("LayerNormalization", ["sum", "scale", "bias"], [f"y_{name}"], axis=-1, epsilon=1e-5)
    return helper.make_graph([ln], name, [], [helper.make_tensor_value_info(f"y_{name}", TensorProto.FLOAT, None)])


nodes = [
    helper.make_node("Add", ["x", "skip"], ["sum"]),
    helper.make_node("If", ["cond"], ["y"], then_branch=branch("then"), else_branch=branch("else")),
]
graph = helper.make_graph(
    nodes,
    "g",
    [helper.make_tensor_value_info(n, TensorProto.FLOAT, ["N", "S", 8]) for n in ("x", "skip")],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", "S", 8])],
    initializer=[
        numpy_helper.from_array(rng.uniform(0.5, 1.5, 8).astype(np.float32), "scale"),
        numpy_helper.from_array(rng.uniform(-1, 1, 8).astype(np.float32), "bias"),
        numpy_helper.from_array(np.array(True), "cond"),
    ],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)  # the input is valid
with tempfile.TemporaryDirectory() as tmp:
    path = f"{tmp}/m.onnx"
    onnx.save(model, path)
    out = optimize_model(path, model_type="bert", num_heads=0, hidden_size=0, opt_level=0).model
ops = [n.domain + "::" + n.op_type for b in out.graph.node[-1].attribute for n in b.g.node] if out.graph.node else []
print("branch ops after:", ops, "opset imports:", [(o.domain, o.version) for o in out.opset_import])
try:
    onnx.checker.check_model(out, full_check=True)
except onnx.checker.ValidationError as exc:
    print("BUG: the output is invalid:", str(exc).strip().splitlines()[0][:160])
    sys.exit(1)
print("ok")
