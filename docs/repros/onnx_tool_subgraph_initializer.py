"""onnx-tool's save_model drops an initializer that only a subgraph reads: the saved model is invalid.

IR.md §Graphs: a subgraph may reference names of its enclosing scopes, initializers included. y = Scan(x) whose
body computes yi = xi + k, k an initializer of the main graph. ``Graph.get_initials_from_nodenames`` keeps the
initializers the main graph's nodes name as inputs only, so the saved model (onnx_tool.model_reorder_nodes; every
operation followed by save_model writes the same) has no k, and the checker rejects the body's Add ("k ... is not
output of any previous nodes"). Exits 1 while k is missing.
"""

import sys
import tempfile
import warnings
from pathlib import Path

import onnx
import onnx_tool
from onnx import TensorProto, helper

vi = helper.make_tensor_value_info
body = helper.make_graph(
    [helper.make_node("Add", ["xi", "k"], ["yi"])],
    "body",
    [vi("xi", TensorProto.FLOAT, [2])],
    [vi("yi", TensorProto.FLOAT, [2])],
)
g = helper.make_graph(
    [helper.make_node("Scan", ["x"], ["y"], body=body, num_scan_inputs=1)],
    "g",
    [vi("x", TensorProto.FLOAT, [3, 2])],
    [vi("y", TensorProto.FLOAT, [3, 2])],
    [helper.make_tensor("k", TensorProto.FLOAT, [2], [1.0, 2.0])],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
    warnings.simplefilter("ignore")
    onnx_tool.model_reorder_nodes(m, str(Path(d) / "out.onnx"))
    saved = onnx.load(str(Path(d) / "out.onnx"))
kept = [t.name for t in saved.graph.initializer]
try:
    onnx.checker.check_model(saved, full_check=True)
    verdict = "accepted"
except Exception as exc:  # noqa: BLE001
    verdict = f"rejected: {str(exc).splitlines()[0]}"
print(f"initializers after save_model: {kept} (given ['k']); checker: {verdict}")
sys.exit(1 if "k" not in kept else 0)
