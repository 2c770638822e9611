"""onnxruntime 1.32.0 CPU: session creation fails at an optimization level on valid models that run unoptimized.

1. MatMul -> BatchNormalization-15 with scale and B float16, mean and var float, X float (BatchNormalization-15
   types X: T, scale/B: T1, mean/var: T2, each of float16/float/double/bfloat16; onnx/onnx#3545): the Level1
   rule that folds BatchNormalization into the MatMul divides initializers of two types:
   "Initializer::div ... Expecting the same data type" (ORT_ENABLE_BASIC and up).
2. QDQ MatMul whose weight is int32 (DequantizeLinear-13 takes int32, zero point 0): the QDQ selector
   fuses it into QLinearMatMul, which takes int8/uint8 only: "Type 'tensor(int32)' of input parameter
   (mq) of operator (QLinearMatMul) ... is invalid" (ORT_ENABLE_EXTENDED and up).
3. (known, microsoft/onnxruntime#31147) the decomposed LayerNorm over a rank-1 x with a scalar B: the
   bias loop of LayerNormFusion picks the Mul output: "Node input 't' is not a graph input ...".
Exits 1 while a session fails.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

rng = np.random.default_rng(0)
arr = numpy_helper.from_array
f = lambda n, s, t=TensorProto.FLOAT: helper.make_tensor_value_info(n, t, s)  # noqa: E731


def model(nodes, inputs, outputs, inits):
    return helper.make_model(
        helper.make_graph(nodes, "g", inputs, outputs, inits), opset_imports=[helper.make_opsetid("", 17)], ir_version=8
    )


bn = model(
    [
        helper.make_node("MatMul", ["x", "w"], ["m"]),
        helper.make_node("BatchNormalization", ["m", "s", "b", "mean", "var"], ["y"], epsilon=1e-5),
    ],
    [f("x", ["N", 8])],
    [f("y", ["N", 4])],
    [
        arr(rng.standard_normal((8, 4)).astype(np.float32), "w"),
        arr(np.ones(4, np.float16), "s"),
        arr(np.zeros(4, np.float16), "b"),
        arr(np.zeros(4, np.float32), "mean"),
        arr(np.ones(4, np.float32), "var"),
    ],
)
qdq = model(
    [
        helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
        helper.make_node("DequantizeLinear", ["mq", "sw", "zw"], ["wd"]),
        helper.make_node("MatMul", ["xd", "wd"], ["m"]),
        helper.make_node("QuantizeLinear", ["m", "sy", "zy"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"]),
    ],
    [f("x", ["N", 8])],
    [f("y", ["N", 4])],
    [
        arr(np.array(0.02, np.float32), "sx"),
        arr(np.array(0, np.int8), "zx"),
        arr(np.array(0.05, np.float32), "sy"),
        arr(np.array(0, np.int8), "zy"),
        arr(np.array(0.01, np.float32), "sw"),
        arr(np.array(0, np.int32), "zw"),
        arr(rng.integers(-100, 100, (8, 4)).astype(np.int32), "mq"),
    ],
)
ln_nodes = [
    helper.make_node("ReduceMean", ["x"], ["m"], axes=[-1]),
    helper.make_node("Sub", ["x", "m"], ["d"]),
    helper.make_node("Pow", ["d", "two"], ["p"]),
    helper.make_node("ReduceMean", ["p"], ["v"], axes=[-1]),
    helper.make_node("Add", ["v", "eps"], ["ve"]),
    helper.make_node("Sqrt", ["ve"], ["sd"]),
    helper.make_node("Div", ["d", "sd"], ["n"]),
    helper.make_node("Mul", ["n", "g"], ["t"]),
    helper.make_node("Add", ["t", "b"], ["y"]),
]
ln = model(
    ln_nodes,
    [f("x", [8])],
    [f("y", [8])],
    [
        arr(np.linspace(0.5, 1.5, 8, dtype=np.float32), "g"),
        arr(np.array(-0.5, np.float32), "b"),
        arr(np.array(2, np.float32), "two"),
        arr(np.array(1e-5, np.float32), "eps"),
    ],
)

L = ort.GraphOptimizationLevel
bad = False
for label, m, shape in (
    ("MatMul+BN float16 scale/B", bn, (2, 8)),
    ("QDQ MatMul int32 weight", qdq, (2, 8)),
    ("LayerNorm rank-1 x, scalar B", ln, (8,)),
):
    onnx.checker.check_model(m, full_check=True)
    feeds = {"x": rng.standard_normal(shape).astype(np.float32)}
    for level in (L.ORT_DISABLE_ALL, L.ORT_ENABLE_BASIC, L.ORT_ENABLE_EXTENDED):
        so = ort.SessionOptions()
        so.graph_optimization_level, so.log_severity_level = level, 4
        try:
            ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)
            print(f"{label}, {level.name}: runs")
        except Exception as e:  # the finding when the unoptimized level runs
            print(f"{label}, {level.name}: FAILS: {str(e).splitlines()[0][:150]}")
            bad = True
sys.exit(1 if bad else 0)
