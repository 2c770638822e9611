"""onnx-tool's Conv+BatchNormalization fusion (``onnx_tool.fusion.ConvBNFusion``) raises on every Conv it matches,
and matches only a Conv that writes kernel_shape.

Operators.md, Conv: kernel_shape is optional ("If not present, should be inferred from input W"). c = Conv(x, w[, b],
kernel_shape=[1, 1]), y = BatchNormalization(c, s, o, m, v). The pattern (``fusion.ConvBN``) tests kernel_shape,
so a Conv without it is never fused; on a Conv with it, the fusion writes into the weight array onnx-tool read
(``ValueError: assignment destination is read-only``) when there is no bias, and looks the bias initializer up
among the nodes (``graph.nodemap[conv_node.input[2]]``: ``KeyError``) when there is one. Exits 1 while either
spelling raises.
"""

import sys
import warnings

import numpy as np
import onnx
import onnx_tool
from onnx import TensorProto, helper, numpy_helper
from onnx_tool import fusion

vi = helper.make_tensor_value_info
failed = {}
for bias in (False, True):
    inputs = ["x", "w", "b"] if bias else ["x", "w"]
    inits = [numpy_helper.from_array(np.ones((2, 1, 1, 1), np.float32), "w")]
    inits += [numpy_helper.from_array(np.ones(2, np.float32), "b")] if bias else []
    inits += [
        numpy_helper.from_array(np.full(2, v, np.float32), n) for n, v in (("s", 2), ("o", 1), ("m", 0), ("v", 1))
    ]
    g = helper.make_graph(
        [
            helper.make_node("Conv", inputs, ["c"], kernel_shape=[1, 1]),
            helper.make_node("BatchNormalization", ["c", "s", "o", "m", "v"], ["y"]),
        ],
        "g",
        [vi("x", TensorProto.FLOAT, [1, 1, 2, 2])],
        [vi("y", TensorProto.FLOAT, [1, 2, 2, 2])],
        inits,
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fusion.ConvBNFusion(onnx_tool.Model(m).graph)
        except Exception as exc:  # noqa: BLE001 - the tool's failure is the finding
            failed["bias" if bias else "no bias"] = f"{type(exc).__name__}: {exc}"
print(f"ConvBNFusion on Conv(kernel_shape=[1, 1]) -> BatchNormalization: {failed or 'fused'}")
sys.exit(1 if failed else 0)
