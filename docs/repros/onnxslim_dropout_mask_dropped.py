"""onnxslim.slim: an inference Dropout whose optional mask output is read is erased as if it had one output.

Operators.md Dropout-12+: ``training_mode`` absent means false; then ``output`` is ``data`` and the ``mask`` output
(``tensor(bool)``) is all true (onnx's reference implementation and onnxruntime return ones). slim's dead node
elimination removes every Dropout through ``Node.erase`` (its vendored onnx_graphsurgeon, ``ir/node.py``), which
rewires ``output`` only:

- data from a node (``d, mask = Dropout(Relu(x))``): ``mask`` is left with no producer; the checker rejects the
  slimmed model ("input 'mask' of node … is not output of any previous nodes");
- data a graph input (``d, mask = Dropout(x)``): every output is rewired to ``x``, so the reader of the bool mask
  reads the float data; with ``y = Mul(d, Cast(mask, FLOAT))`` the Cast, now float to float, is dropped too and
  the slimmed model computes ``x * x`` instead of ``x``.

Exits 1 while either happens.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
import onnxslim
from onnx import TensorProto, helper

x = np.array([[-1.5, 0.5, 2.0], [3.0, -0.25, 1.0]], np.float32)
bad = False
for before in ([], [helper.make_node("Relu", ["x"], ["r"])]):
    data = before[0].output[0] if before else "x"
    nodes = [
        *before,
        helper.make_node("Dropout", [data], ["d", "mask"]),
        helper.make_node("Cast", ["mask"], ["mf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["d", "mf"], ["y"]),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    want = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    out = onnxslim.slim(m)
    print(f"Dropout({data}) slimmed to", [n.op_type for n in out.graph.node])
    try:
        onnx.checker.check_model(out, full_check=True)
        sess = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"])
        got = sess.run(None, {"x": x})[0]
    except Exception as e:  # the finding: an invalid model
        print("  output INVALID:", str(e).splitlines()[0][:120])
        bad = True
        continue
    if not np.array_equal(got, want):
        print("  WRONG result:", got.tolist(), "expected", want.tolist())
        bad = True
    else:
        print("  output valid and equal")
sys.exit(1 if bad else 0)
