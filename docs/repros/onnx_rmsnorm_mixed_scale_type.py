"""onnx's RMSNormalization-23 refuses a scale of another type than X, which its schema allows.

Operators.md RMSNormalization-23: X is T, scale is V and Y is V, two type constraints (T and V: float, float16,
double, bfloat16). onnx's inference function gives Y the type of X (`propagateShapeAndTypeFromFirstInput`,
defs/nn/defs.cc), and the context-dependent body ends `NormalizedT = Cast(Normalized, to = T)`,
`Y = Mul(NormalizedT, scale)`, a T by V product. y = RMSNormalization(x, s), x: float16[2, 3, 4], s: float[4],
y: float[2, 3, 4] at opset 23 is refused by `check_model(full_check=True)` ("Y has inconsistent type
tensor(float16)"), and onnxruntime's CPU provider (no kernel for the pair: it expands the body) refuses to load it
("Type parameter (T) of Optype (Mul) bound to different types"). Exits 1 while either refuses, 0 once both accept."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
bad = 0
for x_type, s_type in ((TensorProto.FLOAT16, TensorProto.FLOAT), (TensorProto.FLOAT, TensorProto.DOUBLE)):
    graph = helper.make_graph(
        [helper.make_node("RMSNormalization", ["x", "s"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", x_type, [2, 3, 4]), helper.make_tensor_value_info("s", s_type, [4])],
        [helper.make_tensor_value_info("y", s_type, [2, 3, 4])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 23)], ir_version=11)
    name = f"X {TensorProto.DataType.Name(x_type)}, scale {TensorProto.DataType.Name(s_type)}"
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as exc:  # noqa: BLE001 - the checker's refusal is the symptom
        print(f"BUG ({name}): the full checker refuses the node:", " ".join(str(exc).split())[-110:])
        bad += 1
    feeds = {
        "x": np.random.default_rng(0).standard_normal((2, 3, 4)).astype(helper.tensor_dtype_to_np_dtype(x_type)),
        "s": np.ones(4, helper.tensor_dtype_to_np_dtype(s_type)),
    }
    try:
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    except Exception as exc:  # noqa: BLE001 - onnxruntime's refusal is the symptom
        print(f"BUG ({name}): onnxruntime refuses the model:", str(exc).splitlines()[0][-120:])
        bad += 1
sys.exit(1 if bad else 0)
