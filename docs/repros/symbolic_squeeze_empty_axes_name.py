"""onnxruntime's symbolic shape inference drops a value computed through ``Squeeze(x, "")``, then rejects the model.

``s = Squeeze(Shape(x)[1:2], "")``: the second input's empty name means "not provided" (IR.md, optional inputs), so
this is ``Squeeze(Shape(x)[1:2])``, the scalar 3 for ``x: float[1, 3, 32]``; ``y = Expand(c, Concat(Shape(x)[1:2],
Reshape(s, [-1])))`` is ``[3, 3]``. ``SymbolicShapeInference`` propagates the value through the one-input Squeeze,
but ``_pass_on_sympy_data`` -> ``_compute_on_sympy_data`` asks for a value of every input, the empty name included,
finds none and keeps no value for ``s``; the Expand's shape is then unknown and ``infer_shapes`` raises "Incomplete
symbolic shape inference" (onnxruntime 1.32.0, ``tools/symbolic_shape_infer.py``). onnx's reference evaluator gives
``[3, 3]`` for both spellings (onnxruntime's own Squeeze kernel refuses the empty name: docs/found.md triage #145, a
separate defect).

Needs onnx, onnxruntime, numpy (and sympy, which the tool imports). Exits 1 while the model with the empty name is rejected and
the same model without it is not.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator
from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference


def model(squeeze_inputs):
    graph = helper.make_graph(
        [
            helper.make_node("Shape", ["x"], ["n"], start=1, end=2),
            helper.make_node("Squeeze", squeeze_inputs, ["s"]),
            helper.make_node("Reshape", ["s", "minus_one"], ["r"]),
            helper.make_node("Concat", ["n", "r"], ["shape"], axis=0),
            helper.make_node("Expand", ["c", "shape"], ["y"]),
        ],
        "squeeze_empty_axes",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 32])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 3])],
        [
            numpy_helper.from_array(np.array([-1], np.int64), "minus_one"),
            numpy_helper.from_array(np.array(1.5, np.float32), "c"),
        ],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def symbolic(m):
    try:
        out = SymbolicShapeInference.infer_shapes(m, auto_merge=False, guess_output_rank=False)
    except Exception as exc:  # noqa: BLE001 - the tool rejecting the model is what is checked
        return f"raises {type(exc).__name__}: {exc}"
    return f"accepted, y: {[d.dim_value or d.dim_param for d in out.graph.output[0].type.tensor_type.shape.dim]}"


x = {"x": np.zeros((1, 3, 32), np.float32)}
plain, empty = model(["n"]), model(["n", ""])
for name, m in (("Squeeze(n)", plain), ('Squeeze(n, "")', empty)):
    y = ReferenceEvaluator(m).run(None, x)[0]
    print(f"{name}: onnx's reference evaluator gives y {y.shape}; symbolic shape inference {symbolic(m)}")
if symbolic(plain).startswith("accepted") and symbolic(empty).startswith("raises"):
    print('BUG: symbolic shape inference rejects the model whose Squeeze writes its omitted axes as ""')
    sys.exit(1)
print("ok: both spellings are accepted alike")
