"""onnx shape inference with data propagation: Cast passes shape values through unchanged whatever `to` is.

y = ConstantOfShape(Cast<to=int64>(Cast<to=T>(Shape(x)))), x: float[3, 300]. Casting to bool makes
every nonzero dim 1, to int8 wraps 300 to 44 (Operators.md Cast: "converting an integer 36 to
Boolean may produce 1"; integer narrowing keeps the low bits). onnx's Cast data-propagation function
(onnx/defs/tensor/defs.cc, PropagateShapeDataFromInputToOutput) copies the input values, so
infer_shapes(data_prop=True) annotates y with x's dims. onnxscript's optimize_for_ort runs the same
inference (_pre_optimize: ShapeInferencePass) and writes that shape into its output model.
Exits 1 while the annotation disagrees with onnxruntime's result.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, shape_inference


def model(to):
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Cast", ["s"], ["n"], to=to),
        helper.make_node("Cast", ["n"], ["b"], to=TensorProto.INT64),
        helper.make_node("ConstantOfShape", ["b"], ["y"]),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, 300])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["a", "b"])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def dims(m, name):
    for v in [*m.graph.value_info, *m.graph.output]:
        if v.name == name and v.type.tensor_type.HasField("shape"):
            return [
                d.dim_value if d.HasField("dim_value") else d.dim_param or "?" for d in v.type.tensor_type.shape.dim
            ]
    return None


bad = False
for to in (TensorProto.BOOL, TensorProto.INT8, TensorProto.INT64):
    m = model(to)
    onnx.checker.check_model(m, full_check=True)
    inferred = shape_inference.infer_shapes(m, data_prop=True)
    ran = ort.InferenceSession(m.SerializeToString()).run(None, {"x": np.zeros((3, 300), np.float32)})[0].shape
    said = dims(inferred, "y")
    ok = said is None or all(d == "?" or isinstance(d, str) or d == r for d, r in zip(said, ran))
    print(
        f"Cast to {TensorProto.DataType.Name(to):5}: data_prop annotates y {said}, onnxruntime gives {list(ran)}"
        f" -> {'ok' if ok else 'WRONG'}"
    )
    bad |= not ok
sys.exit(1 if bad else 0)
