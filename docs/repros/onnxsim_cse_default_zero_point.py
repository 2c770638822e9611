"""onnxsim.simplify: two DequantizeLinear of the same weight are merged only when both spell the zero point.

w1 = DequantizeLinear(mq, sw, zw), w2 = DequantizeLinear(mq, sw[, zw]), mq int8, zw = int8 0: with zw
omitted w2 is the same value (Operators.md DequantizeLinear-13: the zero point defaults to 0 of x's type),
so w1 and w2 are one subexpression. Exits 1 while the spelled-out pair is merged and the omitted one is not.
"""

import sys

import numpy as np
import onnx
import onnxsim
from onnx import TensorProto, helper, numpy_helper


def model(omit):
    inits = [
        numpy_helper.from_array(np.array(0.02, np.float32), "sx"),
        numpy_helper.from_array(np.array(128, np.uint8), "zx"),
        numpy_helper.from_array(np.arange(-16, 16, dtype=np.int8).reshape(8, 4), "mq"),
        numpy_helper.from_array(np.array(0.01, np.float32), "sw"),
        numpy_helper.from_array(np.array(0, np.int8), "zw"),
    ]
    nodes = [
        helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
        helper.make_node("DequantizeLinear", ["mq", "sw", "zw"], ["w1"]),
        helper.make_node("DequantizeLinear", ["mq", "sw"] if omit else ["mq", "sw", "zw"], ["w2"]),
        helper.make_node("MatMul", ["xd", "w2"], ["m2"]),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("xq", TensorProto.UINT8, ["N", 8])],
        [
            helper.make_tensor_value_info("w1", TensorProto.FLOAT, [8, 4]),
            helper.make_tensor_value_info("m2", TensorProto.FLOAT, ["N", 4]),
        ],
        inits,
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


counts = {}
for omit in (False, True):
    m = model(omit)
    onnx.checker.check_model(m, full_check=True)
    out, ok = onnxsim.simplify(m)
    counts[omit] = sum(n.op_type == "DequantizeLinear" for n in out.graph.node)
    print(f"zero point {'omitted' if omit else 'written'} on w2: DequantizeLinear nodes after simplify: {counts[omit]}")
sys.exit(1 if counts[True] > counts[False] else 0)
