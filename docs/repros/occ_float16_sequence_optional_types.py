"""onnxconverter-common's float16 conversion retypes tensor types only: a sequence or optional value keeps a float
element type while the node writing it now reads float16; the model it writes is invalid.

Two computations, each against a spelling with no sequence / optional value that converts to a valid model:

- ``t = SequenceAt(SplitToSequence(x, 2), 0)``, ``y = Neg(t)`` against ``t, u = Split(x, num_outputs=2)``,
  ``y = Neg(t)`` (IR.md §Types: ``seq(tensor(float))`` is a type whose element type is a tensor type);
- ``t = OptionalGetElement(Optional(x))``, ``y = Neg(t)`` against ``t = Identity(x)``.

``onnxconverter_common.float16.convert_float_to_float16`` (1.16.0) infers shapes, then ``process_value_info`` /
``process_graph_input`` / ``process_graph_output`` change ``type.tensor_type.elem_type`` from FLOAT to FLOAT16; a
``sequence_type`` / ``optional_type`` value has no ``tensor_type`` and keeps ``seq(tensor(float))`` /
``optional(tensor(float))`` while SplitToSequence / Optional read float16 ``x``. The checker: "Inferred elem type differs
from existing elem type: (10) vs (1)"; onnxruntime: "Type (seq(tensor(float))) of output arg (s) … does not match
expected type (seq(tensor(float16)))".

Needs onnx, onnxconverter-common, numpy. Exits 1 while a sequence / optional spelling gives an invalid model and its
tensor spelling does not (with and without ``keep_io_types``).
"""

import sys
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common import float16

X = helper.make_tensor_value_info("x", TensorProto.FLOAT, [4])


def model(nodes, y_shape, inits=()):
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)
    graph = helper.make_graph(nodes, "g", [X], [y], list(inits))
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def sequence(uses_sequence):
    if not uses_sequence:
        return model(
            [
                helper.make_node("Split", ["x"], ["t", "u"], num_outputs=2, name="split"),
                helper.make_node("Neg", ["t"], ["y"], name="neg"),
            ],
            [2],
        )
    inits = [numpy_helper.from_array(np.array(2, np.int64), "two"), numpy_helper.from_array(np.array(0, np.int64), "i")]
    return model(
        [
            helper.make_node("SplitToSequence", ["x", "two"], ["s"], name="split"),
            helper.make_node("SequenceAt", ["s", "i"], ["t"], name="at"),
            helper.make_node("Neg", ["t"], ["y"], name="neg"),
        ],
        [2],
        inits,
    )


def optional(uses_optional):
    if not uses_optional:
        nodes = [helper.make_node("Identity", ["x"], ["t"], name="get")]
    else:
        nodes = [
            helper.make_node("Optional", ["x"], ["o"], name="opt"),
            helper.make_node("OptionalGetElement", ["o"], ["t"], name="get"),
        ]
    return model([*nodes, helper.make_node("Neg", ["t"], ["y"], name="neg")], [4])


def converted_error(m, keep_io_types):
    onnx.checker.check_model(m, full_check=True)
    out = float16.convert_float_to_float16(m, keep_io_types=keep_io_types)
    try:
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


warnings.simplefilter("ignore")
bad = False
for name, build in (("SplitToSequence/SequenceAt", sequence), ("Optional/OptionalGetElement", optional)):
    for keep in (False, True):
        common, uncommon = converted_error(build(False), keep), converted_error(build(True), keep)
        print(f"{name}, keep_io_types={keep}: tensor spelling {'valid' if common is None else common}")
        print(f"{name}, keep_io_types={keep}: its own spelling {'valid' if uncommon is None else uncommon}")
        bad = bad or (common is None and uncommon is not None)
sys.exit(1 if bad else 0)
