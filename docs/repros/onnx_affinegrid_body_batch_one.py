"""onnx's AffineGrid-20 function body (``defs/tensor/defs.cc``) fails for a batch of one 2-D theta (onnx 1.23.2);
onnxruntime, which has no float16 AffineGrid kernel and expands the body, refuses the valid model.

Operators.md AffineGrid-20: ``theta`` is ``(N, 2, 3)`` for 2-D data, any ``N``. In the body's 2-D branch the rows of
``theta`` are split off with ``Split(axis=1)`` and then ``Squeeze`` with no axes, which removes every axis of size 1:
with ``N = 1`` the batch axis goes too, and the next ``Split(axis=1)`` meets a rank-1 tensor ("axis 1 is not in valid
range"). With ``N = 2`` the same body runs. Shown twice: the schema's body run as a model-local function by onnx's
reference evaluator (float), and onnxruntime running ``AffineGrid`` on float16 (its expansion of the same body).

Needs onnx, onnxruntime, numpy. Exits 1 while the body fails at N = 1.
"""

import sys

import numpy as np
import onnx
import onnx.defs
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession

body = onnx.defs.get_schema("AffineGrid", 20).function_body
local = onnx.FunctionProto()
local.CopyFrom(body)
local.domain = "local"


def model(op_domain: str, elem: int, n: int) -> onnx.ModelProto:
    node = helper.make_node("AffineGrid", ["theta", "size"], ["grid"], domain=op_domain)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("theta", elem, [n, 2, 3])],
        [helper.make_tensor_value_info("grid", elem, [n, 2, 3, 2])],
        [numpy_helper.from_array(np.array([n, 1, 2, 3], np.int64), "size")],
    )
    opsets = [helper.make_opsetid("", 20)] + ([helper.make_opsetid("local", 1)] if op_domain else [])
    return helper.make_model(graph, opset_imports=opsets, ir_version=9, functions=[local] if op_domain else [])


def run_body(n: int, theta: np.ndarray) -> np.ndarray:
    """The schema's body, as a model-local function, by onnx's reference evaluator (float)."""
    return ReferenceEvaluator(model("local", TensorProto.FLOAT, n)).run(None, {"theta": theta})[0]


def run_ort_float16(n: int, theta: np.ndarray) -> np.ndarray:
    """AffineGrid on float16 by onnxruntime, which expands the same body."""
    m16 = model("", TensorProto.FLOAT16, n)
    onnx.checker.check_model(m16, full_check=True)
    sess = InferenceSession(m16.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"theta": theta.astype(np.float16)})[0]


failed = []
for n in (2, 1):
    theta = np.random.default_rng(0).standard_normal((n, 2, 3)).astype(np.float32)
    expected = ReferenceEvaluator(model("", TensorProto.FLOAT, n)).run(None, {"theta": theta})[0]
    for who, run in (("the body, by the reference evaluator", run_body), ("onnxruntime, float16", run_ort_float16)):
        try:
            got = run(n, theta)
            err = np.abs(got.astype(np.float64) - expected).max()
            print(f"onnx {onnx.__version__}, N={n}: {who}: |grid - AffineGrid| {err:.3g}")
        except Exception as e:  # noqa: BLE001 - the failure is the finding
            print(f"onnx {onnx.__version__}, N={n}: {who} fails: {type(e).__name__}: {str(e).splitlines()[0][:160]}")
            failed.append(f"N={n} ({who})")
if any(f.startswith("N=1") for f in failed):
    print("BUG: AffineGrid-20's function body fails for a batch of one:", "; ".join(failed))
    sys.exit(1)
print("ok")
