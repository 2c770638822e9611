"""onnx's reference evaluator (``onnx.reference``, ``ops/op_grid_sample.py``) refuses GridSample-16's own mode names
written out (onnx 1.23.2).

Operators.md GridSample-16: ``mode`` is one of ``bilinear`` (the default), ``nearest``, ``bicubic``; GridSample-20
renamed them ``linear`` / ``nearest`` / ``cubic``. With ``mode`` left out the evaluator runs the opset-16 model;
with ``mode="bilinear"`` written (the same default) it raises "GridSample interpolation only supports nearest,
linear, and cubic modes". onnxruntime computes both alike.

Needs onnx, onnxruntime, numpy. Exits 1 while the reference evaluator refuses the written default.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession


def model(**attrs):
    graph = helper.make_graph(
        [helper.make_node("GridSample", ["x", "grid"], ["y"], **attrs)],
        "grid_sample",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 3, 3]),
            helper.make_tensor_value_info("grid", TensorProto.FLOAT, [1, 2, 2, 2]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 2, 2])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


rng = np.random.default_rng(0)
feeds = {
    "x": rng.standard_normal((1, 1, 3, 3)).astype(np.float32),
    "grid": rng.uniform(-1, 1, (1, 2, 2, 2)).astype(np.float32),
}
failed = None
for attrs in ({}, {"mode": "bilinear"}):
    m = model(**attrs)
    ran = InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
    try:
        got = ReferenceEvaluator(m).run(None, feeds)[0].ravel().tolist()
    except Exception as exc:  # noqa: BLE001
        got, failed = f"{type(exc).__name__}: {exc}", attrs
    print(f"onnx {onnx.__version__}, {attrs or 'mode left out'}: onnxruntime {ran.ravel().tolist()}, reference {got}")
if failed:
    print("BUG: the reference evaluator refuses GridSample-16's mode 'bilinear' written out")
    sys.exit(1)
print("ok")
