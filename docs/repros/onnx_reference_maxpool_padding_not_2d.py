"""onnx's reference evaluator crashes on a valid 1-D or 3-D MaxPool with padding (explicit pads or auto_pad SAME_*).

Operators.md MaxPool (opsets 1-22) takes any number of spatial axes (`X` of shape (N x C x D1 x ... x Dn), `pads`
"for each spatial axis", `auto_pad` SAME_UPPER / SAME_LOWER). `onnx/reference/ops/op_max_pool.py` sends a MaxPool
whose strides and dilations are all 1 (or absent) to `CommonPool._run` (`_op_common_pool.py`), which pads only the
2-D case: four explicit pads, or two SAME pads (`pad_shape[1]`, a four-axis `np.pad`). A 1-D MaxPool raises
IndexError ("tuple index out of range" for SAME, "index 3 is out of bounds" for pads), a 3-D one ValueError / IndexError.
The 2-D forms, AveragePool / LpPool in 1-D and 3-D, and MaxPool with a stride of 2 run. onnxruntime runs every form.
Seen through `onnxscript.optimizer.optimize`, which folds a node by evaluating it with the reference ops: a constant
1-D / 3-D padded MaxPool is left unfolded ("Evaluation failed"), the 2-D one is folded.
Exits 1 while a form fails or disagrees with onnxruntime, 0 once every form runs and agrees.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator


def model(rank, **attrs):
    node = helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3] * rank, **attrs)
    spatial = [5] * rank
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, *spatial])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, *spatial])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    onnx.checker.check_model(m, full_check=True)  # valid
    return m


bad = []
for rank in (1, 2, 3):
    x = (np.arange(5**rank, dtype=np.float32) - 7).reshape([1, 1] + [5] * rank)
    for attrs in ({"pads": [1] * (2 * rank)}, {"auto_pad": "SAME_UPPER"}, {"auto_pad": "SAME_LOWER"}):
        m = model(rank, **attrs)
        want = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
        try:
            got = ReferenceEvaluator(m).run(None, {"x": x})[0]
            verdict = "agrees" if got.shape == want.shape and np.array_equal(got, want) else f"differs: {got.shape}"
        except Exception as e:  # noqa: BLE001 - the failure is what is reported
            verdict = f"{type(e).__name__}: {str(e)[:80]}"
        print(f"{rank}-D MaxPool {attrs}: onnxruntime {want.shape}, reference {verdict}")
        if verdict != "agrees":
            bad.append(rank)
sys.exit(1 if bad and 2 not in bad else 0)
