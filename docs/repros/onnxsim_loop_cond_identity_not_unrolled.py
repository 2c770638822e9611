"""onnxsim's ``eliminate_loop_with_const_trip_count`` (onnxsim 0.8.1, ``passes/eliminate_loop_with_const_trip_count.h``)
unrolls ``Loop(3, "", v)`` and ``Loop(3, true, v)`` whose body returns its condition input as the condition output,
but not ``Loop(3, true, v)`` whose body returns it through an Identity.

Operators.md Loop-1/11/13/16/19/21: with ``M`` given and ``cond`` left out the Loop is a for loop; with ``cond``
given it runs while the condition is true. A body whose condition output is ``Identity(cond_in)`` keeps a true
condition true, so the three models run the body exactly 3 times (``v * 8`` for ``v_out = v + v``), which
onnxruntime computes for each. The pass's own comment names the form it unrolls: a condition output that forwards
the body's condition input unchanged; its check compares the two values for identity, so an Identity node between
them (the form exporters write) is not recognized and the Loop is kept.

Needs onnx, onnxruntime, onnxsim, numpy. Exits 1 while the Identity spelling is left a Loop and the others are not.
"""

import sys

import numpy as np
import onnx
import onnxsim
from onnx import TensorProto, helper
from onnxruntime import InferenceSession


def model(cond, through_identity):
    nodes = [helper.make_node("Add", ["v", "v"], ["v_out"])]
    c_out = "c"
    if through_identity:
        nodes.insert(0, helper.make_node("Identity", ["c"], ["c_out"]))
        c_out = "c_out"
    body = helper.make_graph(
        nodes,
        "body",
        [
            helper.make_tensor_value_info("i", TensorProto.INT64, []),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
            helper.make_tensor_value_info("v", TensorProto.FLOAT, [2, 3]),
        ],
        [
            helper.make_tensor_value_info(c_out, TensorProto.BOOL, []),
            helper.make_tensor_value_info("v_out", TensorProto.FLOAT, [2, 3]),
        ],
    )
    inits = [helper.make_tensor("m", TensorProto.INT64, [], [3])]
    if cond:
        inits.append(helper.make_tensor("t", TensorProto.BOOL, [], [True]))
    graph = helper.make_graph(
        [helper.make_node("Loop", ["m", "t" if cond else "", "x"], ["y"], body=body)],
        "loop_cond",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        inits,
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


x = {"x": np.arange(6, dtype=np.float32).reshape(2, 3)}
loops = {}
for label, cond, through in [
    ("cond omitted, Identity", False, True),
    ("cond true, passthrough", True, False),
    ("cond true, Identity", True, True),
]:
    m = model(cond, through)
    out, ok = onnxsim.simplify(m)
    ran = InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0]
    assert np.array_equal(ran, x["x"] * 8), label
    loops[label] = [n.op_type for n in out.graph.node].count("Loop")
    print(f"onnxsim {onnxsim.__version__}, {label}: ops after {[n.op_type for n in out.graph.node]}")
if loops["cond true, Identity"] and not loops["cond omitted, Identity"] and not loops["cond true, passthrough"]:
    print("BUG: a Loop whose body forwards a true condition through an Identity is not unrolled")
    sys.exit(1)
print("ok: the three spellings are simplified alike")
