"""onnx's reference evaluator (``onnx.reference.ops.aionnxml``: Scaler, FeatureVectorizer, LinearClassifier; the
gate's drops show SVMClassifier's Z too; Normalizer's is onnx/onnx#8450's) returns its float outputs in the input's
element type (onnx 1.23.2).

The ai.onnx.ml schemas type these outputs ``tensor(float)`` whatever the input's type ``T`` (float, double, int32,
int64): Scaler's ``Y``, FeatureVectorizer's ``Y``, LinearClassifier's and SVMClassifier's scores
``Z`` (``onnx.defs.get_schema(op, domain="ai.onnx.ml").outputs``). The evaluator returns int32 for an int32 ``X``
(Scaler also truncates ``(X - offset) * scale`` to integers there) and float64 for a double ``X``; onnxruntime
returns float32.

Needs onnx, onnxruntime, numpy. Exits 1 while an output's element type departs from the schema's tensor(float).
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

X = np.array([[4, 3, 2, 1], [0, 1, 2, 3], [5, 1, 0, 2]])
coef = np.arange(8, dtype=np.float32) / 8


def nodes(name: str) -> tuple[onnx.NodeProto, list[tuple[str, int | None, list[int]]]]:
    """The node and its outputs (name, element type or None for a label, shape) for op ``name``."""
    ml = {"domain": "ai.onnx.ml"}
    if name == "Scaler":
        return helper.make_node("Scaler", ["x"], ["y"], scale=[2.0], offset=[0.5], **ml), [("y", 1, [3, 4])]
    if name == "FeatureVectorizer":
        return helper.make_node("FeatureVectorizer", ["x"], ["y"], inputdimensions=[4], **ml), [("y", 1, [3, 4])]
    if name == "LinearClassifier":
        node = helper.make_node(
            "LinearClassifier", ["x"], ["label", "z"], coefficients=coef.tolist(), intercepts=[0.5, -0.5],
            classlabels_ints=[0, 1], **ml
        )
        return node, [("label", None, [3]), ("z", 1, [3, 2])]
    raise ValueError(name)


bad = []
for op in ("Scaler", "FeatureVectorizer", "LinearClassifier"):
    for dtype, elem in ((np.int32, TensorProto.INT32), (np.float64, TensorProto.DOUBLE)):
        node, outs = nodes(op)
        graph = helper.make_graph(
            [node], "g", [helper.make_tensor_value_info("x", elem, [3, 4])],
            [helper.make_tensor_value_info(n, t if t else TensorProto.INT64, s) for n, t, s in outs],
        )
        m = helper.make_model(
            graph, opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("ai.onnx.ml", 1)], ir_version=7
        )
        onnx.checker.check_model(m, full_check=True)
        x = X.astype(dtype)
        ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
        try:
            ref = ReferenceEvaluator(m).run(None, {"x": x})
        except Exception as e:  # noqa: BLE001 - a failure on a schema-valid type is part of the finding
            print(f"onnx {onnx.__version__}, {op}({np.dtype(dtype).name}): the reference evaluator fails: {type(e).__name__}")
            bad.append(f"{op}({np.dtype(dtype).name}): fails")
            continue
        for (name, t, _), a, b in zip(outs, ran, ref):
            if t is None:
                continue
            print(f"onnx {onnx.__version__}, {op}({np.dtype(dtype).name}) output {name}: schema float, "
                  f"onnxruntime {a.dtype}, reference {b.dtype}")
            if b.dtype != np.float32:
                bad.append(f"{op}({np.dtype(dtype).name}).{name}: {b.dtype}")
if bad:
    print("BUG: the reference evaluator's float outputs are not float:", ", ".join(bad))
    sys.exit(1)
print("ok")
