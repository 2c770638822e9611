"""onnxscript's default no-op rule ``Add(x, 0)`` removes an Add of any constant within 1e-8 of zero, such as a
normalisation's epsilon.

MeanVarianceNormalization's own function body (onnx ``defs/nn/defs.cc``, bodies 13 and 18) computes
``(X - mean) / (Sqrt(variance) + Epsilon)`` with ``Epsilon = 1e-9``, so that a channel of equal values gives 0, not
0/0. onnxscript 0.7.2's default rewrite rules (``rewriter/rules/common/_no_op.py``: ``add_0_rule``, ``x + 0`` and its
commuted twin) match the pattern constant 0 with the matcher's default tolerances (``_pattern_ir.Constant``:
``rel_tol=1e-5, abs_tol=1e-8``), so ``Add(std, 1e-9)`` becomes ``Identity(std)``: after ``onnxscript.optimizer.optimize``
(and ``onnxscript.rewriter.rewrite``) the same input gives NaN where the model gives 0 (and inf where it gives 1e9).
Expected: the Add kept (Operators.md Add: ``std + 1e-9`` differs from ``std``). Exits 1 while the defect is present.
"""

import numpy as np
import onnx
import onnx.helper as h
import onnxruntime as ort
import onnxscript.optimizer
import onnxscript.rewriter
from onnx import TensorProto as T

eps = h.make_tensor("eps", T.FLOAT, [], [1e-9])
g = h.make_graph(
    [h.make_node("Add", ["s", "eps"], ["d"]), h.make_node("Div", ["x", "d"], ["y"])],
    "g",
    [h.make_tensor_value_info(n, T.FLOAT, [4]) for n in ("x", "s")],
    [h.make_tensor_value_info("y", T.FLOAT, [4])],
    initializer=[eps],
)
m = h.make_model(g, opset_imports=[h.make_opsetid("", 18)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
feeds = {"x": np.array([0, 1, 2, 3], np.float32), "s": np.array([0, 0, 1, 2], np.float32)}


def run(model):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]


want = run(m)
bad = 0
for name, tool in (("optimize", onnxscript.optimizer.optimize), ("rewrite", onnxscript.rewriter.rewrite)):
    out = tool(m)
    got = run(out)
    same = np.array_equal(np.isnan(got), np.isnan(want)) and np.allclose(got, want, equal_nan=True)
    print(f"{name}: {[n.op_type for n in out.graph.node]} -> {got} (model: {want}) {'ok' if same else 'DIFFERS'}")
    bad += not same
raise SystemExit(1 if bad else 0)
