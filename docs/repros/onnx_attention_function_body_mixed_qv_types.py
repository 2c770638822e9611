"""onnx Attention-23/24: the schema lets V (T2) have another element type than Q and K (T1), but the
context-dependent function body multiplies the softmax (T1) by V (T2) with one MatMul, whose T must be one type.

A runtime with no kernel for T1 != T2 expands that body: onnxruntime 1.25.1 and 1.32.0 refuse the valid model
("Type parameter (T) of Optype (MatMul) bound to different types"); onnx's reference evaluator runs it.
Exits 1 while the body is invalid for float Q/K with a float16 V, 0 when it is valid.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto as TP
from onnx import defs, helper

OPSET = 23
shape = [1, 2, 3, 4]
q = helper.make_tensor_value_info("Q", TP.FLOAT, shape)
k = helper.make_tensor_value_info("K", TP.FLOAT, shape)
v = helper.make_tensor_value_info("V", TP.FLOAT16, shape)
y = helper.make_tensor_value_info("Y", TP.FLOAT, shape)
node = helper.make_node("Attention", ["Q", "K", "V"], ["Y"])
model = helper.make_model(helper.make_graph([node], "g", [q, k, v], [y]), opset_imports=[helper.make_opsetid("", OPSET)])
onnx.checker.check_model(model, full_check=True)  # valid: T1 = float, T2 = float16 (Operators.md Attention)

schema = defs.get_schema("Attention", OPSET)
types = [i.type.SerializeToString() for i in (q, k, v)]
body = onnx.FunctionProto.FromString(schema.get_context_dependent_function(node.SerializeToString(), types))
expanded = helper.make_model(
    helper.make_graph(list(body.node), "body", [q, k, v], [y]), opset_imports=[helper.make_opsetid("", OPSET)]
)
try:
    onnx.checker.check_model(expanded, full_check=True)  # full_check infers with the types checked
    body_ok = True
except (onnx.checker.ValidationError, onnx.shape_inference.InferenceError) as exc:
    print("the checker refuses the expanded function body:", str(exc).splitlines()[0][:200])
    body_ok = False

try:
    import onnxruntime as ort

    feeds = {
        "Q": np.ones(shape, np.float32),
        "K": np.ones(shape, np.float32),
        "V": np.ones(shape, np.float16),
    }
    ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    print(f"onnxruntime {ort.__version__} runs it")
except ImportError:
    pass
except Exception as exc:  # noqa: BLE001 - the refusal is the evidence
    print(f"onnxruntime {ort.__version__} refuses the valid model:", str(exc)[:160])

print("onnx", onnx.__version__, "body valid" if body_ok else "body INVALID for T1 != T2")
sys.exit(0 if body_ok else 1)
