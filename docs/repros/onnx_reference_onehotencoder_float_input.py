"""onnx's reference evaluator (``onnx.reference.ops.aionnxml``, ``op_one_hot_encoder.py``) does not cast a float
input to integers before its category lookup (onnx 1.23.2).

Operators-ml.md OneHotEncoder: "If the input is a tensor of float, int32, or double, the data will be cast to integers
and the cats_int64s category list will be used for the lookups." The evaluator looks the float values up as they
are, so 1.7 matches no category (a row of zeros, or an error with ``zeros=0``) where the cast value 1 is category 1;
onnxruntime casts (truncates) and finds it.

Needs onnx, onnxruntime, numpy. Exits 1 while the evaluator's one-hot rows differ from the cast input's.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

x = np.array([[0.25, 1.7, 2.0], [2.9, 0.0, 1.0]])
cats = [0, 1, 2]
expected = (x.astype(np.int64)[..., None] == np.array(cats)).astype(np.float32)  # the cast, then the lookup
bad = []
for dtype, elem in ((np.float32, TensorProto.FLOAT), (np.float64, TensorProto.DOUBLE)):
    graph = helper.make_graph(
        [helper.make_node("OneHotEncoder", ["x"], ["y"], domain="ai.onnx.ml", cats_int64s=cats, zeros=1)],
        "g",
        [helper.make_tensor_value_info("x", elem, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3, 3])],
    )
    m = helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 1)], ir_version=8
    )
    onnx.checker.check_model(m, full_check=True)
    feed = {"x": x.astype(dtype)}
    ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)[0]
    ref = ReferenceEvaluator(m).run(None, feed)[0]
    e_ort, e_ref = int(np.abs(ran - expected).sum()), int(np.abs(ref - expected).sum())
    print(f"onnx {onnx.__version__}, OneHotEncoder({np.dtype(dtype).name}): elements off the cast lookup: "
          f"onnxruntime {e_ort}, reference {e_ref}")
    if e_ref:
        bad.append(np.dtype(dtype).name)
if bad:
    print("BUG: the reference evaluator does not cast a float input to integers before the lookup:", ", ".join(bad))
    sys.exit(1)
print("ok")
