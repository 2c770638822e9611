"""onnxruntime's float16 conversion (``OnnxModel.convert_float_to_float16(keep_io_types=True)``) renames a graph output
``y`` to ``graph_output_cast_0`` in every node it walks, subgraphs included: an If branch whose own value is also named
``y`` (the main graph's ``y`` is written after the If, so it is not in the branch's scope: IR.md §Nodes, SSA "names
from the outer scopes that are visible in the nested subgraph") loses its output.

Model (opset 17): ``o = If(c)`` (each branch ``y = Constant(float[3])``, branch output ``y``), ``y = Mul(o, 1)``,
graph output ``y: float[3]``. The checker accepts it and onnxruntime runs it. Expected: the converted model passes the
checker and computes the same values (at float16 precision). Exits 1 while the converted model is refused."""

import sys

import numpy as np
import onnx
import onnx.helper as h
import onnxruntime as ort
from onnxruntime.transformers.onnx_model import OnnxModel


def branch(name, values):
    t = onnx.numpy_helper.from_array(np.array(values, np.float32), name + "_value")
    return h.make_graph(
        [h.make_node("Constant", [], ["y"], value=t)],
        name,
        [],
        [h.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [3])],
    )


g = h.make_graph(
    [
        h.make_node("If", ["c"], ["o"], then_branch=branch("then", [1, 2, 3]), else_branch=branch("else", [4, 5, 6])),
        h.make_node("Mul", ["o", "one"], ["y"]),
    ],
    "g",
    [h.make_tensor_value_info("c", onnx.TensorProto.BOOL, [1])],
    [h.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [3])],
    [onnx.numpy_helper.from_array(np.array(1, np.float32), "one")],
)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)])
m.ir_version = 8
onnx.checker.check_model(m, full_check=True)
feeds = {"c": np.array([True])}
want = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]

w = OnnxModel(m)
w.convert_float_to_float16(keep_io_types=True)
try:
    onnx.checker.check_model(w.model, full_check=True)
    got = ort.InferenceSession(w.model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
except Exception as exc:  # noqa: BLE001 - the defect: the converted model is refused
    print(f"BUG: the converted model is refused: {type(exc).__name__}: {str(exc).splitlines()[0]}")
    for n in w.model.graph.node:
        if n.op_type == "If":
            b = n.attribute[0].g
            print(
                f"  branch {b.name}: nodes write {[o for x in b.node for o in x.output]}, outputs {[o.name for o in b.output]}"
            )
    sys.exit(1)
np.testing.assert_allclose(got, want, rtol=1e-3)
print("ok: the converted model runs and agrees")
