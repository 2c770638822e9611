"""Polygraphy's float16 conversion (``ConvertToFp16``: onnxconverter-common's ``convert_float_to_float16(model,
keep_io_types=True, disable_shape_infer=True)``) leaves a block-listed op that writes a graph output reading float16.

``DEFAULT_OP_BLOCK_LIST`` (Max, Min, TopK, CumSum, Range, Resize, ...) names ops the conversion keeps in float: a
Cast to float before each float16 input and a Cast to float16 after. When such a node writes the graph output
(``y = Max(a, a)`` with ``a = Relu(x)``), the conversion leaves its inputs float16, declares its output float and
casts that to float16 under the name ``y``, declared float: the checker refuses the model ("(op_type:Max):
[TypeInferenceError] Inferred elem type differs from existing elem type: (10) vs (1)"). The same Max read by a Neg
before the output converts to a valid model. Exits 1 while the converted model of the output form fails the
checker; 0 once it passes.
"""

import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h
from polygraphy.backend.onnx import ConvertToFp16
from polygraphy.logger import G_LOGGER

G_LOGGER.module_severity = G_LOGGER.CRITICAL


def model(op: str, at_output: bool) -> onnx.ModelProto:
    nodes = [h.make_node("Relu", ["x"], ["a"]), h.make_node(op, ["a", "a"], ["y" if at_output else "m"])]
    nodes += [] if at_output else [h.make_node("Neg", ["m"], ["y"])]
    g = h.make_graph(
        nodes, "g", [h.make_tensor_value_info("x", T.FLOAT, [2, 3])], [h.make_tensor_value_info("y", T.FLOAT, [2, 3])]
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


bad = 0
for op in ("Max", "Min"):
    for at_output in (False, True):
        out = ConvertToFp16(model(op, at_output))()
        label = f"{op} {'writes the graph output' if at_output else 'read by Neg'}"
        try:
            onnx.checker.check_model(out, full_check=True)
            print(f"{label}: converted model valid")
        except Exception as e:  # noqa: BLE001 - the checker's refusal is the finding
            print(f"{label}: {str(e).splitlines()[0][:200]}")
            bad = 1
sys.exit(bad)
