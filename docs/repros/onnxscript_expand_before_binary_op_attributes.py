"""onnxscript 0.7.2 rules `expand_before_binary_op_rules` (rewriter/rules/common/_remove_expand_before_binary_op.py,
exported, opt-in) rewrite `Op(Expand(x, s), y)` / `Op(x, Expand(y, s))` as `Op(x, y)` for 19 broadcasting ops, and
build the new node from the op type and the two inputs alone: the matched node's attributes are not copied. Mod's
`fmod` (Operators.md Mod-13: "must be set to 1" for floating-point inputs) and BitShift's required `direction`
(BitShift-11) are among those ops. The float Mod then fails to run in onnxruntime, an integer Mod switches from
C fmod to Python's floor modulus, and the BitShift node is refused by the checker. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript.rewriter import rewrite
from onnxscript.rewriter.rules.common import expand_before_binary_op_rules


def model(op, elem, y, attrs):
    graph = helper.make_graph(
        [helper.make_node("Expand", ["y", "s"], ["e"]), helper.make_node(op, ["x", "e"], ["z"], **attrs)],
        "g",
        [helper.make_tensor_value_info("x", elem, [2, 4])],
        [helper.make_tensor_value_info("z", elem, [2, 4])],
        [numpy_helper.from_array(y, "y"), numpy_helper.from_array(np.array([2, 4], np.int64), "s")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def run(m, x):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


bad = False
cases = [
    (
        "Mod",
        onnx.TensorProto.FLOAT,
        np.array([3, -2, 2, 4], np.float32),
        {"fmod": 1},
        np.array([[-7, 5, -3, 9], [7, -5, 3, -9]], np.float32),
    ),
    (
        "Mod",
        onnx.TensorProto.INT32,
        np.array([3, -2, 2, 4], np.int32),
        {"fmod": 1},
        np.array([[-7, 5, -3, 9], [7, -5, 3, -9]], np.int32),
    ),
    (
        "BitShift",
        onnx.TensorProto.UINT8,
        np.array([1, 2, 3, 4], np.uint8),
        {"direction": "RIGHT"},
        np.full((2, 4), 64, np.uint8),
    ),
]
for op, elem, y, attrs, x in cases:
    m = model(op, elem, y, attrs)
    onnx.checker.check_model(m, full_check=True)  # the input is valid
    want = run(m, x)
    out = rewrite(m, expand_before_binary_op_rules)
    node = [n for n in out.graph.node if n.op_type == op][0]
    print(op, helper.tensor_dtype_to_string(elem), "attributes after:", [a.name for a in node.attribute])
    try:
        onnx.checker.check_model(out, full_check=True)
        got = run(out, x)
    except Exception as exc:  # noqa: BLE001 - the checker's or onnxruntime's error is the finding
        print("  BUG:", str(exc).strip().splitlines()[0][:200])
        bad = True
        continue
    if not np.array_equal(want, got):
        print("  BUG: want", want.ravel().tolist(), "got", got.ravel().tolist())
        bad = True
sys.exit(1 if bad else 0)
