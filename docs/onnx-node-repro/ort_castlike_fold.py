"""onnxruntime ORT_ENABLE_BASIC folds Cast of a constant but not CastLike of the same constant: the CastLike
becomes a Cast that stays (its log: "Could not find a CPU kernel and hence can't constant fold CastLike")."""

import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h

for op in ["CastLike", "Cast"]:
    nodes = [h.make_node("Constant", [], ["c"], value_int=1)]
    nodes.append(
        h.make_node("CastLike", ["c", "x"], ["cf"])
        if op == "CastLike"
        else h.make_node("Cast", ["c"], ["cf"], to=T.FLOAT)
    )
    nodes.append(h.make_node("Add", ["x", "cf"], ["y"]))
    g = h.make_graph(
        nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [2])], [h.make_tensor_value_info("y", T.FLOAT, [2])]
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 21)])
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    so.optimized_model_filepath = f"/tmp/nt_{op}.onnx"
    ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
    print(op, "->", [n.op_type for n in onnx.load(so.optimized_model_filepath).graph.node])
