"""onnxscript rewriter.rewrite: rules read a function body's reference attributes (`to = @to`) as values.

A model-local function whose body node takes an attribute by reference (IR.md, Functions: a
node attribute with ref_attr_name binds to the calling node's attribute):
  1. Cast_fn0<to>(x) = Cast<to=@to>(x), called with to=FLOAT on a double input: CastIdentity
     (rules/common/_basic_rules.py) compares x.dtype (unknown in the body: None) with to.as_int()
     (None for a reference) and replaces the Cast by Identity: the output stays double.
  2. Conv_fn0<auto_pad, kernel_shape>(x, w) = Conv<auto_pad=@auto_pad,...>: the auto_pad
     normalisation rule (rules/common/_fuse_pad_into_conv.py) crashes with TypeError.
Exits 1 while either is present.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnxscript import rewriter

LOCAL = "local"


def ref(name, typ):
    a = onnx.AttributeProto()
    a.name, a.ref_attr_name, a.type = name, name, typ
    return a


def with_function(body_op, attrs, n_in, call_attrs, inputs, outputs, inits=()):
    body = helper.make_node(body_op, [f"x{i}" for i in range(n_in)], ["y0"])
    body.attribute.extend(ref(n, t) for n, t in attrs)
    fn = helper.make_function(
        LOCAL,
        "F",
        [f"x{i}" for i in range(n_in)],
        ["y0"],
        [body],
        [helper.make_opsetid("", 18)],
        attributes=[n for n, _ in attrs],
    )
    call = helper.make_node("F", [i.name for i in inputs] + [t.name for t in inits], ["y"], domain=LOCAL, **call_attrs)
    g = helper.make_graph([call], "g", inputs, outputs, list(inits))
    return helper.make_model(
        g, functions=[fn], ir_version=8, opset_imports=[helper.make_opsetid("", 18), helper.make_opsetid(LOCAL, 1)]
    )


bad = False
# 1. Cast by reference
m = with_function(
    "Cast",
    [("to", onnx.AttributeProto.INT)],
    1,
    {"to": TensorProto.FLOAT},
    [helper.make_tensor_value_info("c", TensorProto.DOUBLE, [2, 3])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
)
onnx.checker.check_model(m, full_check=True)
c = np.arange(6, dtype=np.float64).reshape(2, 3)
print("Cast: before", ort.InferenceSession(m.SerializeToString()).run(None, {"c": c})[0].dtype)
out = rewriter.rewrite(m)
body = [n.op_type for n in out.functions[0].node]
print("Cast: function body after rewrite:", body)
try:
    onnx.checker.check_model(out, full_check=True)
    print("  checker: ok")
except Exception as e:
    print("  checker:", type(e).__name__, str(e).splitlines()[0][:150])
bad |= body != ["Cast"]

# 2. Conv by reference (auto_pad, kernel_shape)
w = helper.make_tensor("w", TensorProto.FLOAT, [3, 2, 3, 3], np.ones(54, np.float32))
m = with_function(
    "Conv",
    [("auto_pad", onnx.AttributeProto.STRING), ("kernel_shape", onnx.AttributeProto.INTS)],
    2,
    {"auto_pad": "SAME_UPPER", "kernel_shape": [3, 3]},
    [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 5, 5])],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 3, 5, 5])],
    [w],
)
onnx.checker.check_model(m, full_check=True)
try:
    rewriter.rewrite(m)
    print("Conv: rewrite ok")
except Exception as e:
    cause = e
    while cause.__cause__ is not None:
        cause = cause.__cause__
    print("Conv: rewrite raised", type(e).__name__, "caused by", type(cause).__name__ + ":", str(cause)[:150])
    bad = True
sys.exit(1 if bad else 0)
