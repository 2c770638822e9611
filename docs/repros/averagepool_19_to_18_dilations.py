"""onnx.version_converter: AveragePool-19 -> 18 keeps `dilations` (new in AveragePool-19), so a model
that writes the stated default dilations = [1, 1] converts to an invalid model; the same model with
dilations omitted converts fine. Source: onnx/version_converter/convert.h registers
CompatibleAdapter("AveragePool", OpSetID(19), OpSetID(18)); compare 7 -> 6, which removes
count_include_pad (RemoveAttribute) when it is at its default."""

import onnx
import onnx.version_converter as vc
from onnx import TensorProto as T
from onnx import helper as h


def model(**attrs):
    node = h.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2], **attrs)
    graph = h.make_graph(
        [node],
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, [1, 1, 4, 4])],
        [h.make_tensor_value_info("y", T.FLOAT, [1, 1, 3, 3])],
    )
    return h.make_model(graph, opset_imports=[h.make_opsetid("", 19)])


import sys

print("onnx", onnx.__version__)
invalid = False
for attrs in ({}, {"dilations": [1, 1]}):
    m = model(**attrs)
    onnx.checker.check_model(m, full_check=True)  # both valid at opset 19
    out = vc.convert_version(m, 18)
    try:
        onnx.checker.check_model(out, full_check=True)
        print(attrs, "-> opset 18: valid")
    except onnx.checker.ValidationError as e:
        print(attrs, "-> opset 18: INVALID:", str(e).splitlines()[0])
        invalid = True
sys.exit(1 if invalid else 0)
