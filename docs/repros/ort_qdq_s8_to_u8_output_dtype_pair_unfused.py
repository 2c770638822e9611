"""onnxruntime 1.32.0 at ORT_ENABLE_EXTENDED misses the QDQ fusions (QLinearMatMul, QGemm, QLinearAdd) when an
int8 QuantizeLinear-21 is typed by ``output_dtype = INT8`` with no zero point instead of by an int8 zero point 0.

Operators.md QuantizeLinear-21: the output type is given by ``output_dtype`` or by the zero point's type; when the
zero point is omitted it is 0. So ``Q(x, s, output_dtype=INT8)`` and ``Q(x, s, zp_int8_0)`` are the same node.
onnxruntime's QDQS8ToU8Transformer (``qdq_transformer/qdq_s8_to_u8.cc``, "Convert QuantizeLinear and
DequantizeLinear pair with type int8_t to type uint8_t") converts a pair only when both nodes have three inputs, so
the ``output_dtype`` pair stays int8 while the others become uint8; the selectors' "activation and output must be
same type" checks (``qdq_selectors.cc``) then decline, or (MatMul, all pairs int8) the int8 activation is declined.
The float MatMul / Gemm / Add is left between Q/DQ pairs. Values are unchanged (a missed optimization).
Exit 1 while a respelled model is left unfused where the zero-point spelling is fused, 0 once fixed."""

import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(op: str, respelled: tuple[str, ...]) -> onnx.ModelProto:
    def quantize(x: str, s: str, y: str) -> onnx.NodeProto:
        if y in respelled:
            return helper.make_node("QuantizeLinear", [x, s], [y], output_dtype=TensorProto.INT8)
        return helper.make_node("QuantizeLinear", [x, s, "z"], [y])

    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 8])]
    inits = [
        numpy_helper.from_array(np.array(0.02, np.float32), "sx"),
        numpy_helper.from_array(np.array(0.05, np.float32), "sy"),
        numpy_helper.from_array(np.array(0.01, np.float32), "sw"),
        numpy_helper.from_array(np.array(0, np.int8), "z"),
    ]
    if op == "Add":
        second = [quantize("x2", "sw", "wq"), helper.make_node("DequantizeLinear", ["wq", "sw", "z"], ["wd"])]
        inputs.append(helper.make_tensor_value_info("x2", TensorProto.FLOAT, [2, 8]))
        shape = [2, 8]
    else:
        second = [helper.make_node("DequantizeLinear", ["wq", "sw", "z"], ["wd"])]
        inits.append(numpy_helper.from_array((np.arange(32).reshape(8, 4) % 11 - 5).astype(np.int8), "wq"))
        shape = [2, 4]
    nodes = [
        quantize("x", "sx", "xq"),
        helper.make_node("DequantizeLinear", ["xq", "sx", "z"], ["xd"]),
        *second,
        helper.make_node(op, ["xd", "wd"], ["m"]),
        quantize("m", "sy", "yq"),
        helper.make_node("DequantizeLinear", ["yq", "sy", "z"], ["y"]),
    ]
    graph = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
    onnx.checker.check_model(m, full_check=True)
    return m


def remaining(m: onnx.ModelProto, op: str, feeds: dict, path: str) -> tuple[bool, np.ndarray]:
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    so.optimized_model_filepath = path
    so.log_severity_level = 4
    y = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    return any(n.op_type == op for n in onnx.load(path).graph.node), y


bad = False
x = np.linspace(-2, 2, 16, dtype=np.float32).reshape(2, 8)
feeds_of = {"Add": {"x": x, "x2": x[::-1].copy()}, "MatMul": {"x": x}, "Gemm": {"x": x}}
with tempfile.TemporaryDirectory() as tmp:
    for op, spellings in (("MatMul", (("xq", "yq"), ("xq",))), ("Gemm", (("xq",), ("yq",))), ("Add", (("xq",),))):
        feeds = feeds_of[op]
        base_left, base_y = remaining(model(op, ()), op, feeds, f"{tmp}/base.onnx")
        print(f"{op}, int8 zero points 0: {'left unfused' if base_left else 'fused'}")
        for respelled in spellings:
            left, y = remaining(model(op, respelled), op, feeds, f"{tmp}/form.onnx")
            same = np.allclose(y, base_y, atol=0.051)
            print(
                f"{op}, {'/'.join(respelled)} typed by output_dtype: {'left unfused' if left else 'fused'}, "
                f"{'same values' if same else 'DIFFERENT values'}"
            )
            bad |= (left and not base_left) or not same
print("onnxruntime", ort.__version__, "->", "BUG" if bad else "ok")
sys.exit(1 if bad else 0)
