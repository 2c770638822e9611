"""onnxruntime 1.32.0's transformer optimizer (onnxruntime/transformers/fusion_quickgelu.py, FusionQuickGelu, run by
optimize_model for every model type) crashes on y = x * Sigmoid(alpha * x) when the first Mul has its constant as
the first input: it reads the constant at input 1 only (`get_constant_value(first_mul_node.input[1]).item()`), gets
None for `x` and raises AttributeError. Mul is commutative (Operators.md, Mul: elementwise, multidirectional
broadcast), the model is valid and onnxruntime runs it; the `x * alpha` spelling fuses into QuickGelu.
Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxruntime.transformers.optimizer import optimize_model


def model(alpha_first: bool) -> onnx.ModelProto:
    a, b = ("alpha", "x") if alpha_first else ("x", "alpha")
    graph = helper.make_graph(
        [
            helper.make_node("Mul", [a, b], ["t"]),
            helper.make_node("Sigmoid", ["t"], ["s"]),
            helper.make_node("Mul", ["x", "s"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 8])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 8])],
        [numpy_helper.from_array(np.array(1.702, np.float32), "alpha")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


x = np.linspace(-3, 3, 16, dtype=np.float32).reshape(2, 8)
for alpha_first in (False, True):
    m = model(alpha_first)
    onnx.checker.check_model(m, full_check=True)  # valid, and onnxruntime runs it
    ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    try:
        out = optimize_model(m, "bert", num_heads=0, hidden_size=0, opt_level=0).model
    except Exception as exc:  # noqa: BLE001
        print(f"alpha first={alpha_first}: BUG: optimize_model raised {type(exc).__name__}: {exc}")
        sys.exit(1)
    print(f"alpha first={alpha_first}:", [n.op_type for n in out.graph.node])
print("ok")
