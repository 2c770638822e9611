"""onnxruntime's static quantization (`onnxruntime.quantization.quantize_static`, QDQ; its `ONNXModel.topological_sort`,
`quantization/onnx_model.py`) on `d = Gather(Shape(x), [1])`, `y, i = If(c){TopK(x, d)}{TopK(x, d)}`: `d` is read
only inside the If's branches (IR.md §Graphs: a subgraph may read any value of an enclosing graph). The sorted
output puts the If before Shape and Gather, so the checker rejects it ("Nodes in a graph must be topologically
sorted, however input 'd' ..."). The same TopK outside an If stays in order. Exit 1 while the output is misordered."""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization import CalibrationDataReader, QuantFormat, quantize_static

X = np.random.default_rng(0).standard_normal((2, 4, 6)).astype(np.float32)


def model(in_if):
    def branch(n):
        return helper.make_graph(
            [helper.make_node("TopK", ["x", "d"], [f"y_{n}", f"i_{n}"], axis=-1)], n, [],
            [helper.make_tensor_value_info(f"y_{n}", TensorProto.FLOAT, [2, 4, 4]),
             helper.make_tensor_value_info(f"i_{n}", TensorProto.INT64, [2, 4, 4])],
        )

    nodes = [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("Gather", ["s", "one"], ["d"], axis=0)]
    if in_if:
        nodes.append(helper.make_node("If", ["c"], ["y", "i"], then_branch=branch("then"), else_branch=branch("else")))
    else:
        nodes.append(helper.make_node("TopK", ["x", "d"], ["y", "i"], axis=-1))
    g = helper.make_graph(
        nodes, "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 6])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4, 4]),
         helper.make_tensor_value_info("i", TensorProto.INT64, [2, 4, 4])],
        [numpy_helper.from_array(np.array([1], np.int64), "one"), numpy_helper.from_array(np.array(True), "c")],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": X})
    return m


class Reader(CalibrationDataReader):
    def __init__(self):
        self.feeds = iter([{"x": X}])

    def get_next(self):
        return next(self.feeds, None)


out = {}
for name, in_if in (("TopK in the main graph", False), ("TopK in If branches", True)):
    with tempfile.TemporaryDirectory() as d:
        src, dst = os.path.join(d, "float.onnx"), os.path.join(d, "quantized.onnx")
        onnx.save(model(in_if), src)
        quantize_static(src, dst, Reader(), quant_format=QuantFormat.QDQ)
        q = onnx.load(dst)
        try:
            onnx.checker.check_model(q, full_check=True)
            out[name] = "valid"
        except onnx.checker.ValidationError as e:
            out[name] = f"{[n.op_type for n in q.graph.node]}: {str(e).splitlines()[0][:90]}"
print("onnx", onnx.__version__, "| onnxruntime", ort.__version__, out)
if out["TopK in If branches"] != "valid":
    print("BUG: quantize_static's output puts the If before the producer of the value its branches read")
    sys.exit(1)
print("ok")
