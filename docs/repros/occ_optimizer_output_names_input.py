"""onnxconverter-common's graph optimizer crashes on a graph output that is a graph input or an initializer.

``y = Relu(x)`` plus a second graph output ``w`` that names an initializer (or ``x`` itself), opset 17. IR.md
§Graphs lets a graph output name any value of the graph, a graph input or an initializer included (the checker and
onnxruntime accept both models). ``onnxconverter_common.optimizer.optimize_onnx_model`` (1.16.0) ends with
``const_folding_optimizer``, which starts a walk at the node producing each graph output,
``opt_graph.tensor_to_node[output.name]``: a value no node produces raises ``KeyError``.

Needs onnx, onnxconverter-common, numpy. Exits 1 while a second output a node writes (``w2 = Add(x, w)``)
optimizes to a valid model and the output naming the initializer crashes.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common.optimizer import optimize_onnx_model

W = numpy_helper.from_array(np.ones(3, np.float32), "w")


def model(second, extra_nodes=()):
    nodes = [helper.make_node("Relu", ["x"], ["y"]), *extra_nodes]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in ("y", second)],
        [W],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def error(m):
    try:
        onnx.checker.check_model(optimize_onnx_model(m), full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"
    return None


errors = {
    "w2 = Add(x, w) as the output": error(model("w2", [helper.make_node("Add", ["x", "w"], ["w2"])])),
    "the initializer w as the output": error(model("w")),
    "the graph input x as the output": error(model("x")),
}
for k, e in errors.items():
    print(f"{k}: {e or 'optimized'}")
sys.exit(1 if errors["w2 = Add(x, w) as the output"] is None and errors["the initializer w as the output"] else 0)
