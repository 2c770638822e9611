"""onnx's reference evaluator (``onnx.reference``, ``ops/op_upsample.py``) fails on Upsample-7, whose ``scales`` is an
attribute (onnx 1.23.2).

Operators.md Upsample-7 (opsets 7 and 8): ``scales`` is a required float-list attribute; Upsample-9 made it an
input. ``Upsample-7(x, scales=[1, 1, 2, 2])`` at opset 8 and ``Upsample-9(x, [1, 1, 2, 2])`` are the same nearest
upsampling, as onnxruntime computes; the reference evaluator runs the opset-9 model and raises a TypeError
("Issues with types … and attributes ['mode', 'scales']") on the opset-8 one.

Needs onnx, onnxruntime, numpy. Exits 1 while the reference evaluator fails on Upsample-7.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

SCALES = [1.0, 1.0, 2.0, 2.0]


def model(opset):
    if opset == 8:
        nodes, inits = [helper.make_node("Upsample", ["x"], ["y"], scales=SCALES)], []
    else:
        nodes, inits = (
            [helper.make_node("Upsample", ["x", "s"], ["y"])],
            [helper.make_tensor("s", TensorProto.FLOAT, [4], SCALES)],
        )
    graph = helper.make_graph(
        nodes,
        "upsample",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 2, 2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 4, 4])],
        inits,
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=4)
    onnx.checker.check_model(m, full_check=True)
    return m


feeds = {"x": np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)}
failed = None
for opset in (9, 8):
    m = model(opset)
    ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    try:
        got = ReferenceEvaluator(m).run(None, feeds)[0].ravel().tolist()
    except Exception as exc:  # noqa: BLE001
        got, failed = f"{type(exc).__name__}: {str(exc)[:120]}", opset
    print(f"onnx {onnx.__version__}, opset {opset}: onnxruntime {ran.ravel().tolist()}, reference {got}")
if failed:
    print("BUG: the reference evaluator fails on Upsample-7's scales attribute")
    sys.exit(1)
print("ok")
