"""onnx's MeanVarianceNormalization function bodies are typed for float only.

Operators.md MeanVarianceNormalization-9 / -13: T is float16, float, double (and bfloat16 from 13). The op has no
type-and-shape inference function of its own, so onnx's shape inference (and the full checker) infer it through
its function body (defs/nn/defs.cc, old.cc), which writes its exponent and epsilon as `Constant <value = float …>`
beside T operands: `Pow(X, Exponent)` (body 9), `Add(STD, Epsilon)` (bodies 13, 18) bind T to two types. A valid
y = MeanVarianceNormalization(x, axes=[0, 2, 3]) with x: double[2, 3, 4, 5] is refused by
`check_model(full_check=True)`, and onnxruntime (no CPU kernel for double, so it expands the same body) refuses to
load it. Exits 1 while any of the listed (opset, type) nodes is refused, 0 once every one is accepted and runs."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
bad = 0
for opset in (9, 13, 18):
    for elem in (TensorProto.DOUBLE, TensorProto.FLOAT16):
        graph = helper.make_graph(
            [helper.make_node("MeanVarianceNormalization", ["x"], ["y"], axes=[0, 2, 3])],
            "g",
            [helper.make_tensor_value_info("x", elem, [2, 3, 4, 5])],
            [helper.make_tensor_value_info("y", elem, [2, 3, 4, 5])],
        )
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
        name = f"opset {opset}, {TensorProto.DataType.Name(elem)}"
        try:
            onnx.checker.check_model(model, full_check=True)
        except Exception as exc:  # noqa: BLE001 - the checker's refusal is the symptom
            print(f"BUG ({name}): the full checker refuses the node:", " ".join(str(exc).split())[-110:])
            bad += 1
        try:
            x = np.random.default_rng(0).standard_normal((2, 3, 4, 5)).astype(helper.tensor_dtype_to_np_dtype(elem))
            ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
        except Exception as exc:  # noqa: BLE001 - onnxruntime's refusal is the symptom
            print(f"BUG ({name}): onnxruntime refuses the model:", str(exc).splitlines()[0][-120:])
            bad += 1
sys.exit(1 if bad else 0)
