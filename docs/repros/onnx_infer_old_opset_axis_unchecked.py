"""onnx's strict shape inference accepts ArgMax-1 / ArgMin-1, Softmax-1 / LogSoftmax-1 / Hardmax-1 and Compress-9
with an axis the input does not have.

Operators.md ArgMax-1 / ArgMin-1 ("the axis in which to compute the arg indices"), Softmax-1 / LogSoftmax-1 /
Hardmax-1 (the input coerced to 2-D at the axis k: [a_0 * ... * a_{k-1}, a_k * ... * a_{n-1}]) and Compress-9 ("axis
along which to take slices") each name an axis of the input; opset 11 wrote the range down ([-r, r-1]) and its
inference functions refuse an axis outside it. onnx 1.16.2 ... 1.23.2's inference functions of the older versions
(ArgMax/ArgMin opset 1-10, the softmax family opset 1-10, Compress opset 9-10) never read the axis against the rank:
`y = Op(x, axis=5)`, `x: float[2, 3]` (Compress with a bool [2] condition), opset 9, pass
`check_model(full_check=True)` / `infer_shapes(strict_mode=True)`, and ArgMax-1 / ArgMin-1 even write an output
shape ([2, 3], keepdims = 1: no dim was reduced). The same models at opset 11 are refused ("'axis' must be in
[-rank(indices), rank(indices)-1]"); onnxruntime 1.32.0 fails all six at run time ("axis 5 is not in valid range
[-2,1]"). Found by the inference probes (M531, `axis-past-end`) on the generated opset-1 / opset-9 forms.
Exits 1 while strict inference accepts any of the six at opset 9, 0 once it refuses all.
"""

import sys

import onnx
from onnx import TensorProto, helper


def model(op, opset, axis):
    inputs, inits = ["x"], []
    if op == "Compress":
        inits.append(helper.make_tensor("c", TensorProto.BOOL, [2], [True, False]))
        inputs.append("c")
    out = TensorProto.INT64 if op.startswith("Arg") else TensorProto.FLOAT
    g = helper.make_graph(
        [helper.make_node(op, inputs, ["y"], axis=axis)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", out, None)],
        inits,
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def accepted(m):
    try:
        return onnx.shape_inference.infer_shapes(m, strict_mode=True)
    except Exception as e:  # noqa: BLE001 - the refusal expected
        return str(e).splitlines()[0][:100]


bad = False
for op in ("ArgMax", "ArgMin", "Softmax", "LogSoftmax", "Hardmax", "Compress"):
    got = accepted(model(op, 9, 5))
    if isinstance(got, str):
        print(f"{op} opset 9, axis = 5: refused ({got})")
        continue
    bad = True
    y = got.graph.output[0].type.tensor_type
    shape = [d.dim_value if d.HasField("dim_value") else "?" for d in y.shape.dim] if y.HasField("shape") else None
    at11 = accepted(model(op, 11, 5))
    print(
        f"{op} opset 9, axis = 5: accepted by strict shape inference (x has rank 2), y inferred {shape}; "
        f"opset 11: {'accepted' if not isinstance(at11, str) else 'refused'}"
    )
sys.exit(1 if bad else 0)
