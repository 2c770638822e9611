"""A planted pass that writes a Gemm for a MatMul without asking the rank of its first input, and a base case
for it, loaded with --cases-from by the input-neighbour tests (tests only).

- ``planted:matmul-gemm``: ``MatMul(a, w)`` with ``w`` a 2-D initializer becomes ``Gemm(a, w)``. Right where
  ``a`` has rank 2 (Operators.md Gemm: A is ``(M, K)``); MatMul also takes a stack of matrices (numpy matmul
  semantics, Operators.md MatMul), which Gemm does not, so on a rank-3 ``a`` the output is invalid.

Base case ``input-test/matmul``: ``y = Relu(Reshape(MatMul(x, w), [-1, 4]))``, x ``[N, 8]``, w ``[8, 4]``.
"""

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from passcheck.cases import Case, Form, register
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:matmul-gemm"


def matmul_gemm(model):
    """Every MatMul whose second input is a 2-D initializer → Gemm, whatever the first input's rank."""
    two_d = {t.name for t in model.graph.initializer if len(t.dims) == 2}
    for n in model.graph.node:
        if n.op_type == "MatMul" and n.input[1] in two_d:
            n.op_type = "Gemm"
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, matmul_gemm, doc="test pass: MatMul → Gemm, rank unchecked"))


def base():
    """``y = Relu(Reshape(MatMul(x, w), [-1, 4]))``, x ``[N, 8]`` (opset 17)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"], name="mm"),
        helper.make_node("Reshape", ["m", "shape"], ["r"], name="rs"),
        helper.make_node("Relu", ["r"], ["y"], name="re"),
    ]
    w = np.linspace(-1, 1, 32, dtype=np.float32).reshape(8, 4)
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(np.array([-1, 4], np.int64), "shape")]
    graph = helper.make_graph(nodes, "mm", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


FORMS = {"common": Form(base), "uncommon": Form(base, "the same model")}
register(Case(id="input-test/matmul", forms=FORMS, doc="y = Relu(Reshape(MatMul(x, w), [-1, 4]))", opset=17))
