"""onnx's version converter reads an optional input or output written as "" as if it were given.

IR.md §Optional Inputs and Outputs: an optional input or output may be left off the end of a node's list or written
with an empty name; both mean it is absent. Four adapters test the length of the list instead of whether the slot
holds a value (`node->inputs().size()`, `node->outputs().size()`), so the "" spelling of a valid model converts
differently from the omitted one:

- `split_17_18.h`: `Split-17(x, "")` (equal parts) converted to opset 18 gets no `num_outputs`; the output is
  invalid ("Neither 'split' input nor 'num_outputs' attribute has been given"), while `Split-17(x)` gets
  `num_outputs = 2`.
- `q_dq_21_20.h`: `QuantizeLinear-21(x, s, "", output_dtype=INT8)` converted to opset 20 loses `output_dtype`, so
  the output turns uint8 (the graph says int8: "Inferred elem type differs"), while `QuantizeLinear-21(x, s)` is
  refused as the adapter says ("supply a zero-point tensor instead").
- `axes_input_to_attribute.h`: `ReduceSum-13(x, "")` (every axis) converted to opset 12 is refused ("No initializer
  or constant input to node found"), while `ReduceSum-13(x)` converts to `ReduceSum-12(x)`.
- `batch_normalization_13_14.h`: `y, "", "", "", "" = BatchNormalization-13(x, s, b, m, v)` (inference: Y alone)
  converted to opset 14 is refused ("BatchNormalization outputs 4 and 5 are not supported in Opset 14"), while
  `y = BatchNormalization-13(...)` converts.

Usage: `python onnx_converter_empty_name_optional_slot.py [split|quantize|reduce|batchnorm]` (default: all four).
Exits 1 while a chosen "" spelling converts wrongly or is refused where the omitted one is not."""

import sys

import numpy as np
import onnx
import onnx.version_converter
from onnx import TensorProto, helper, numpy_helper


def model(node, opset, out_type, out_shape, inits=()):
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info(o, out_type, out_shape) for o in node.output],
        list(inits),
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=10)
    onnx.checker.check_model(m, full_check=True)
    return m


def convert(m, target):
    """The converted model if it converts and is valid; else the first line of why not."""
    try:
        out = onnx.version_converter.convert_version(m, target)
        onnx.checker.check_model(out, full_check=True)
    except Exception as exc:  # the converter's assertions and the checker's refusals
        return str(exc).splitlines()[0][-140:]
    return out


scale = numpy_helper.from_array(np.array(0.5, np.float32), "s")


def batchnorm(outs):
    stats = [numpy_helper.from_array(np.ones(4, np.float32), n) for n in ("bs", "bb", "bm", "bv")]
    node = helper.make_node("BatchNormalization", ["x", "bs", "bb", "bm", "bv"], ["y", *outs[1:]])
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
        stats,
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


cases = {
    "split": (
        lambda ins: model(helper.make_node("Split", ins, ["a", "b"], axis=1), 17, TensorProto.FLOAT, [2, 2]),
        ["x"],
        18,
    ),
    "quantize": (
        lambda ins: model(
            helper.make_node("QuantizeLinear", ["x", "s", *ins[1:]], ["y"], output_dtype=TensorProto.INT8),
            21,
            TensorProto.INT8,
            [2, 4],
            [scale],
        ),
        ["x"],
        20,
    ),
    "reduce": (
        lambda ins: model(helper.make_node("ReduceSum", ins, ["y"]), 13, TensorProto.FLOAT, [1, 1]),
        ["x"],
        12,
    ),
    "batchnorm": (batchnorm, ["y"], 14),  # the "" slots are outputs here
}
EMPTY = {"batchnorm": ["y", "", "", "", ""]}

print("onnx", onnx.__version__)
bad = False
chosen = sys.argv[1:] or list(cases)
for name in chosen:
    build, inputs, target = cases[name]
    omitted = convert(build(inputs), target)
    empty = convert(build(EMPTY.get(name, [*inputs, ""])), target)
    ok_omitted = not isinstance(omitted, str)
    ok_empty = not isinstance(empty, str)
    print(f'{name}: omitted -> {"valid" if ok_omitted else omitted}; "" -> {"valid" if ok_empty else empty}')
    if ok_empty != ok_omitted or (not ok_empty and empty != omitted):
        print(f'BUG: {name}: the "" spelling of an absent optional slot converts otherwise than the omitted one')
        bad = True
sys.exit(1 if bad else 0)
