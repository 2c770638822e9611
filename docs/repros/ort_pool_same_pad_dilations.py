"""onnxruntime's MaxPool, AveragePool and LpPool with auto_pad SAME_UPPER / SAME_LOWER and dilations > 1 compute the
padding from the undilated kernel: a shorter output, and values from the wrong windows.

Operators.md MaxPool (also AveragePool-19, LpPool-18, which added dilations), attribute auto_pad: SAME_UPPER /
SAME_LOWER pad so that the output's spatial size is ceil(input / stride); the pad needed is
(output - 1) * stride + ((kernel - 1) * dilation + 1) - input, the extra one at the end (UPPER) or the start (LOWER).
`y = Op(x, kernel_shape=[3], strides=[1], dilations=[2], auto_pad=SAME_UPPER)`, `x = [0, 1, 2, 3, 4]` as
float[1, 1, 5], opset 19: the spec's output has 5 elements (onnx shape inference agrees: [1, 1, 5]); onnxruntime
1.32.0 returns 3 (the pad needed for an undilated kernel of 3, 2 in all, with the dilated windows), e.g. MaxPool
[3, 4, 3] for [2, 3, 4, 3, 4]. Its Conv refuses the same attributes ("Dilation not supported for
AutoPadType::SAME_UPPER"); the pools do not. The expected values below follow the spec's windows directly (numpy).
Exits 1 while any op's output differs from the spec's, 0 once all agree.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

X = np.arange(5, dtype=np.float32)
K, S, D = 3, 1, 2


def spec(op, auto_pad):
    """The output the spec defines: ceil(n / s) positions; pads from the dilated kernel; padded cells excluded
    (MaxPool: never the maximum; AveragePool: count_include_pad = 0, the default; LpPool p = 2: they add 0)."""
    n = len(X)
    out = -(-n // S)
    need = max(0, (out - 1) * S + (K - 1) * D + 1 - n)
    begin = need // 2 if auto_pad == "SAME_UPPER" else need - need // 2
    y = []
    for i in range(out):
        idx = [i * S - begin + j * D for j in range(K)]
        w = np.array([X[t] for t in idx if 0 <= t < n])
        y.append({"MaxPool": w.max(), "AveragePool": w.mean(), "LpPool": np.sqrt((w**2).sum())}[op])
    return np.array(y, np.float32)


bad = False
so = ort.SessionOptions()
so.log_severity_level = 3
for op in ("MaxPool", "AveragePool", "LpPool"):
    for auto_pad in ("SAME_UPPER", "SAME_LOWER"):
        node = helper.make_node(op, ["x"], ["y"], kernel_shape=[K], strides=[S], dilations=[D], auto_pad=auto_pad)
        g = helper.make_graph(
            [node],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 5])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, "n"])],
        )
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)
        onnx.checker.check_model(m, full_check=True)
        got = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(
            None, {"x": X.reshape(1, 1, 5)}
        )[0]
        want = spec(op, auto_pad)
        same = got.shape == (1, 1, len(want)) and np.allclose(got.ravel(), want, atol=1e-5)
        print(f"{op} {auto_pad}: onnxruntime {got.ravel().tolist()}, spec {want.tolist()}" + ("" if same else "  <-"))
        bad |= not same
sys.exit(1 if bad else 0)
