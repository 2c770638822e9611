"""onnxruntime's symbolic shape inference gives a ReduceSum / ReduceMean over an empty axes tensor the input's shape.

ReduceSum-13 and Reduce*-18 take ``axes`` as an optional input: "when axes is empty (either not provided or
explicitly empty)" and ``noop_with_empty_axes`` is 0 (its default), every axis is reduced. So ``ReduceSum(x)`` and
``ReduceSum(x, axes)`` with ``axes`` an empty int64 initializer are the same node: for ``x: float[2, 3]`` the output
is ``[1, 1]`` (``keepdims`` 1) or ``[]`` (``keepdims`` 0), as onnxruntime and onnx's reference evaluator compute.
``SymbolicShapeInference._infer_ReduceSum`` (onnxruntime 1.32.0, ``tools/symbolic_shape_infer.py``; ReduceMean uses
it) reads the empty list as "reduce no axis" and writes the input's shape ``[2, 3]`` on the output: an annotation
that fails at run time. The omitted-axes spelling is inferred right.

Needs onnx, onnxruntime, numpy (and sympy, which the tool imports). Exits 1 while the empty-axes spelling is
given the input's shape.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnxruntime import InferenceSession
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference


def model(op, opset, empty_axes, keepdims):
    graph = helper.make_graph(
        [helper.make_node(op, ["x", "axes"] if empty_axes else ["x"], ["y"], keepdims=keepdims)],
        "reduce_empty_axes",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["r0", "r1"][: 2 * keepdims])],
        [numpy_helper.from_array(np.zeros((0,), np.int64), "axes")] if empty_axes else [],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def inferred(m):
    t = SymbolicShapeInference.infer_shapes(m).graph.output[0].type.tensor_type
    return [d.dim_value if d.HasField("dim_value") else d.dim_param for d in t.shape.dim]


x = {"x": np.arange(6, dtype=np.float32).reshape(2, 3)}
wrong = []
for op, opset in (("ReduceSum", 13), ("ReduceMean", 18)):
    for keepdims in (1, 0):
        for empty in (False, True):
            m = model(op, opset, empty, keepdims)
            ran = list(
                InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, x)[0].shape
            )
            ref = list(ReferenceEvaluator(m).run(None, x)[0].shape)
            got = inferred(m)
            spelling = "an empty axes tensor" if empty else "axes omitted"
            print(f"{op}-{opset} keepdims={keepdims}, {spelling}: runs {ran} (reference {ref}); symbolic {got}")
            if got != ran:
                wrong.append(f"{op} keepdims={keepdims} with {spelling}")
if wrong:
    print("BUG: symbolic shape inference annotates a shape the run does not produce:", "; ".join(wrong))
    sys.exit(1)
print("ok: both spellings are inferred as they run")
