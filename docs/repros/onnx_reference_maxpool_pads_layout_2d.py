"""onnx's reference MaxPool reads a 2-D pool's explicit pads as (top, bottom, left, right).

Operators.md MaxPool, pads: "[x1_begin, x2_begin...x1_end, x2_end,...]". For a 2-D MaxPool whose strides and
dilations are 1, `onnx/reference/ops/_op_common_pool.py` (`CommonPool._run`) unpacks the four pads as
`pad_top, pad_bottom, pad_left, pad_right`, so `pads = [1, 1, 0, 0]` (one row and one column before, none after)
pads the first axis by 1 + 1 and the second by 0 + 0. onnxscript's constant folding evaluates a constant MaxPool
with that evaluator and writes its answer into the model.

Exits 1 while the reference evaluator (or onnxscript's fold) differs from the spec's answer, 0 once fixed.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

x = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)
node = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2], pads=[1, 1, 0, 0])
graph = helper.make_graph(
    [node],
    "g",
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 5, 5])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 5, 5])],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 12)])
model.ir_version = 8
onnx.checker.check_model(model, full_check=True)

# the spec's answer: pad one row on top and one column on the left with -inf, then 2x2 windows, stride 1
padded = np.pad(x, ((0, 0), (0, 0), (1, 0), (1, 0)), constant_values=-np.inf)
want = np.array([[padded[0, 0, i : i + 2, j : j + 2].max() for j in range(5)] for i in range(5)], np.float32)
want = want.reshape(1, 1, 5, 5)

bad = False
got = ReferenceEvaluator(model).run(None, {"x": x})[0]
print("spec:", want.shape, want.ravel().tolist())
print("reference evaluator:", got.shape, got.ravel().tolist())
if got.shape != want.shape or not np.array_equal(got, want):
    bad = True
try:
    import onnxruntime as ort

    o = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    print("onnxruntime:", o.shape, "equal to the spec:", o.shape == want.shape and np.array_equal(o, want))
except ImportError:
    pass
try:
    import onnxscript.optimizer

    # the same pool on a constant input: onnxscript folds it with the reference evaluator
    c = helper.make_graph(
        [helper.make_node("MaxPool", ["c"], ["y"], kernel_shape=[2, 2], pads=[1, 1, 0, 0])],
        "g",
        [],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 5, 5])],
        [numpy_helper.from_array(x, "c")],
    )
    cm = helper.make_model(c, opset_imports=[helper.make_opsetid("", 12)])
    cm.ir_version = 8
    folded = onnxscript.optimizer.optimize(cm)
    if not any(n.op_type == "MaxPool" for n in folded.graph.node):
        inits = {t.name: numpy_helper.to_array(t) for t in folded.graph.initializer}
        consts = {
            n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in folded.graph.node if n.op_type == "Constant"
        }
        y = {**inits, **consts}.get("y")
        print("onnxscript folded y:", None if y is None else (y.shape, y.ravel().tolist()))
        if y is not None and (y.shape != want.shape or not np.array_equal(y, want)):
            bad = True
    else:
        print("onnxscript left the MaxPool")
except ImportError:
    pass
sys.exit(1 if bad else 0)
