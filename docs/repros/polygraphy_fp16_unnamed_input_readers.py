"""Polygraphy's float16 conversion (``polygraphy convert --fp-to-fp16``, ``ConvertToFp16``: onnxconverter-common's
``float16.convert_float_to_float16(model, keep_io_types=True, disable_shape_infer=True)``) writes one Cast per reader
of a float graph input, named ``<input>_cast_to_<reader's node name>``.

A node's name is optional (IR.md §Nodes: "name: An optional name of the node, used for diagnostic purposes only"),
and most exporters leave it empty. With two unnamed nodes reading ``x``, both inserted Casts write ``x_cast_to_``:
the output is not in SSA form (IR.md §Graphs: each name is assigned once) and the checker and onnxruntime refuse it.
Named readers give a valid model. ``process_graph_input`` in ``onnxconverter_common/float16.py``. Exits 1 while the
converted model of the unnamed form fails the checker; 0 once it passes.
"""

import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h
from polygraphy.backend.onnx import ConvertToFp16
from polygraphy.logger import G_LOGGER

G_LOGGER.module_severity = G_LOGGER.CRITICAL


def model(names):
    g = h.make_graph(
        [h.make_node("Neg", ["x"], ["y1"], name=names[0]), h.make_node("Abs", ["x"], ["y2"], name=names[1])],
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, [2, 3])],
        [h.make_tensor_value_info("y1", T.FLOAT, [2, 3]), h.make_tensor_value_info("y2", T.FLOAT, [2, 3])],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


bad = 0
for names in (("neg", "abs"), ("", "")):
    out = ConvertToFp16(model(names))()
    try:
        onnx.checker.check_model(out, full_check=True)
        print(f"node names {names}: converted model valid")
    except onnx.checker.ValidationError as e:
        print(f"node names {names}: {str(e).splitlines()[0]}")
        bad = 1
sys.exit(bad)
