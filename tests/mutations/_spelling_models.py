"""Models for the IR-level spelling rewrites: If/Loop bodies with constants and outer-scope reads,
optional outputs, a model-local function, initializers, and small models the onnx wheel ships."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

from passcheck.cases.builders import parse

BODIES = """g (float[N, 4] x, bool c) => (float[N, 4] y, float[N, 4] z) {
    y = If(c) <then_branch = t () => (float[N, 4] a) {
        k = Constant<value = float {0.5}>()
        a = Mul(x, k)
    }, else_branch = e () => (float[N, 4] b) {
        b = Neg(x)
    }>
    trip = Constant<value = int64 {2}>()
    one = Constant<value = float[4] {1.0, 2.0, 0.0, 3.0}>()
    z = Loop(trip, , x) <body = b (int64 i, bool c_in, float[N, 4] acc_in) => (bool c_out, float[N, 4] acc_out) {
        c_out = Identity(c_in)
        two = Constant<value = float {2.0}>()
        s = Mul(acc_in, two)
        acc_out = Add(s, one)
    }>
}"""

OPTIONAL = """g (float[2, 3, 8] x) => (float[2, 3, 4] y, float[2, 3, 8] d, float[2, 3, 8] r) {
    y = MaxPool<kernel_shape = [2], strides = [2]>(x)
    d = Dropout(x)
    r = Clip(x)
}"""

PARAMS = """g (float[2, 3] x) => (float[2, 3] y, float[3] w_out) {
    a = Add(x, w)
    y = Mul(a, k)
    w_out = Identity(w)
}"""


def bodies() -> onnx.ModelProto:
    return parse(BODIES, opset=13)


def optional() -> onnx.ModelProto:
    return parse(OPTIONAL, opset=13)


def params() -> onnx.ModelProto:
    """Initializers that are not inputs (IR >= 4), one of them also a graph output through an Identity."""
    inits = [
        numpy_helper.from_array(np.array([1, -2, 3], np.float32), "w"),
        numpy_helper.from_array(np.array([0.5, 0, 2], np.float32), "k"),
    ]
    m = parse(PARAMS, opset=13, initializers=inits)
    m.ir_version = 8
    return m


def function() -> onnx.ModelProto:
    """A model calling a model-local function (unnamed body nodes, a Clip with omitted optional inputs,
    an attribute parameter) twice."""
    body = [
        helper.make_node("Mul", ["a", "a"], ["sq"]),
        helper.make_node("Neg", ["a"], ["ng"]),
        helper.make_node("Add", ["sq", "ng"], ["s"]),
        helper.make_node("Clip", ["s"], ["c"]),
        helper.make_node("LeakyRelu", ["c"], ["out"]),
    ]
    body[-1].attribute.append(helper.make_attribute_ref("alpha", onnx.AttributeProto.FLOAT))
    fn = helper.make_function("local.test", "SqMinus", ["a"], ["out"], body, [helper.make_opsetid("", 13)], ["alpha"])
    nodes = [
        helper.make_node("SqMinus", ["x"], ["h"], domain="local.test", alpha=0.1),
        helper.make_node("SqMinus", ["h"], ["y"], domain="local.test", alpha=0.2),
    ]
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 3])],
    )
    return helper.make_model(
        g,
        opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid("local.test", 1)],
        functions=[fn],
        ir_version=8,
    )


WHEEL = Path(onnx.__file__).parent / "backend/test/data"


def wheel(name: str) -> onnx.ModelProto:
    """A model the onnx wheel ships (``pytorch-converted/test_PixelShuffle``, ``simple/…``)."""
    return onnx.load(str(WHEEL / name / "model.onnx"))


BUILDERS = {
    "bodies": bodies,
    "optional": optional,
    "params": params,
    "function": function,
    "wheel:test_PixelShuffle": lambda: wheel("pytorch-converted/test_PixelShuffle"),
    "wheel:test_MaxPool1d": lambda: wheel("pytorch-converted/test_MaxPool1d_stride_padding_dilation"),
}
