"""onnx's version converter (`onnx.version_converter.convert_version(m, 7)`, adapter `MaxPool_8_7`,
`version_converter/adapters/maxpool_8_7.h`) on `MaxPool-8(x) -> (y, "")`: the optional Indices output written as an
empty name, which IR.md §Optional Inputs and Outputs defines as absent (the same model as `-> (y)`). The adapter
counts the node's output slots and refuses ("Opset version 7 of MaxPool cannot include Indices output"); the same
MaxPool without the empty slot converts. Exit 1 while the empty slot is refused."""

import sys

import onnx
from onnx import TensorProto, helper, version_converter


def model(outputs):
    node = helper.make_node("MaxPool", ["x"], outputs, kernel_shape=[2, 2])
    g = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 1, 4, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 3, 3])],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 8)], ir_version=4)
    onnx.checker.check_model(m, full_check=True)
    return m


out = {}
for name, outputs in (("one slot", ["y"]), ("empty second slot", ["y", ""])):
    try:
        converted = version_converter.convert_version(model(outputs), 7)
        onnx.checker.check_model(converted)
        out[name] = "converted"
    except Exception as e:  # the converter's assertion is a RuntimeError
        out[name] = f"{type(e).__name__}: {str(e).splitlines()[0][-80:]}"
print(onnx.__version__, out)
if out["empty second slot"] != "converted":
    print("BUG: an absent (empty-named) Indices output is refused as present")
    sys.exit(1)
print("ok")
