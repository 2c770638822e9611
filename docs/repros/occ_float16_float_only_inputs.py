"""onnxconverter-common's float16 conversion writes float16 into inputs whose schema has no float16; the model it writes
is invalid.

Two ops, each against a spelling of the same computation that converts to a valid model:

- ``y = Celu(x, alpha=1)`` (Operators.md Celu-12: ``T`` is ``tensor(float)`` only) against its function body,
  ``Max(0, x) + Min(0, Elu(x))`` (Elu takes float16);
- ``y = DequantizeLinear(QuantizeLinear(x, s, z), s, z)`` at opset 13 (QuantizeLinear-13: ``x`` and ``y_scale`` are
  ``tensor(float)`` or ``tensor(int32)``) against the same nodes at opset 19 (float16 allowed).

``onnxconverter_common.float16.convert_float_to_float16`` (1.16.0) reads no schema: only ``DEFAULT_OP_BLOCK_LIST``
keeps ops float, and neither op is in it, so ``x`` and the scale become float16 and the checker and onnxruntime refuse
the result ("X typestr: T, has unsupported type: tensor(float16)"). The class onnxruntime's fork shows for
DequantizeLinear-13 (docs/found.md row 753) and contrib ops (row 1130), in this package's own copy.

Needs onnx, onnxconverter-common, numpy. Exits 1 while the float-only spellings give invalid models and the others do
not.
"""

import sys
import warnings

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common import float16

X, Y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in ("x", "y"))


def celu(expanded):
    if expanded:
        nodes = [
            helper.make_node("Max", ["zero", "x"], ["p"], name="max"),
            helper.make_node("Elu", ["x"], ["e"], alpha=1.0, name="elu"),
            helper.make_node("Min", ["zero", "e"], ["n"], name="min"),
            helper.make_node("Add", ["p", "n"], ["y"], name="add"),
        ]
    else:
        nodes = [helper.make_node("Celu", ["x"], ["y"], alpha=1.0, name="celu")]
    zero = numpy_helper.from_array(np.array(0, np.float32), "zero")
    graph = helper.make_graph(nodes, "g", [X], [Y], [zero] if expanded else [])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def qdq(opset):
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"], name="q"),
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["y"], name="dq"),
    ]
    inits = [
        numpy_helper.from_array(np.array(0.1, np.float32), "s"),
        numpy_helper.from_array(np.array(0, np.uint8), "z"),
    ]
    graph = helper.make_graph(nodes, "g", [X], [Y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=9)


def converted_error(m):
    out = float16.convert_float_to_float16(m, keep_io_types=True)
    try:
        onnx.checker.check_model(out, full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {str(e).splitlines()[0]}"
    return None


warnings.simplefilter("ignore")
pairs = {
    "Celu": (converted_error(celu(True)), converted_error(celu(False))),
    "QuantizeLinear/DequantizeLinear": (converted_error(qdq(19)), converted_error(qdq(13))),
}
bad = False
for k, (good, float_only) in pairs.items():
    print(f"{k}, the float16-capable spelling: {'valid' if good is None else good}")
    print(f"{k}, the float-only spelling: {'valid' if float_only is None else float_only}")
    bad = bad or (good is None and float_only is not None)
sys.exit(1 if bad else 0)
