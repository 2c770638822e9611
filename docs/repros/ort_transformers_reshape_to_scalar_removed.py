"""onnxruntime 1.32.0's transformer optimizer (onnxruntime/transformers/onnx_model_bert.py,
BertOnnxModel.adjust_reshape_and_expand, run first by `optimize` for bert, gpt2, vit, …) removes every Reshape whose
`shape` is an empty constant ("no actually data in shape"), rewiring its readers to the Reshape's input. An empty
`shape` reshapes a one-element tensor to a scalar (Operators.md Reshape: the output has `shape`'s rank, here 0), so
the readers now get rank 1 (`Relu` computes `[1]` where `[]` was declared), and a Reshape that writes a graph output
leaves that output without a producer (invalid model). Both inputs are valid and onnxruntime runs them.
Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnxruntime.transformers.optimizer import optimize_model

MODELS = {
    "Relu(Reshape(x, []))": """<ir_version: 8, opset_import: ["" : 17]>
g (float[1] x) => (float y) <int64[0] to_scalar = {}> {
  s = Reshape (x, to_scalar)
  y = Relu (s)
}""",
    "Reshape(x, []) as the output": """<ir_version: 8, opset_import: ["" : 17]>
g (float[1] x) => (float y) <int64[0] to_scalar = {}> {
  y = Reshape (x, to_scalar)
}""",
}
feeds = {"x": np.array([-2.5], np.float32)}


def problem(text: str) -> str | None:
    """What is wrong with optimize_model's output of the (valid, runnable) model ``text``, or None."""
    model = onnx.parser.parse_model(text)
    onnx.checker.check_model(model, full_check=True)
    expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    out = optimize_model(model, "bert", num_heads=0, hidden_size=0, opt_level=0).model
    try:
        onnx.checker.check_model(out, full_check=True)
        got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
    return None if got.shape == expected.shape else f"output shape {got.shape}, expected {expected.shape}"


found = {name: problem(text) for name, text in MODELS.items()}
for name, why in found.items():
    print(f"{name}: {why or 'ok'}")
sys.exit(1 if any(found.values()) else 0)
