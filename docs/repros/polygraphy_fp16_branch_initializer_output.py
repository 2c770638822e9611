"""Polygraphy's float16 conversion (``ConvertToFp16``: onnxconverter-common's ``convert_float_to_float16(model,
keep_io_types=True, disable_shape_infer=True)``) leaves float an If branch whose output is one of its initializers,
and declares the If's output float16.

A graph output may be an initializer (IR.md §Graphs: a name a graph produces is a node output, an input or an
initializer), inside a branch as in the main graph. With ``y = If(c)`` whose branches each return an initializer
``w`` of three floats, the conversion turns the If's value float16 (it casts ``y`` back for ``keep_io_types``) but
writes the branches' initializers and output declarations as float: the checker refuses the model ("Inferred elem
type differs from existing elem type: (1) vs (10)"). When a node in the branch reads the initializer (``Neg(w)``) it
is converted and the model is valid. Exits 1 while the converted model of the initializer-output form fails the
checker; 0 once it passes.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh
from polygraphy.backend.onnx import ConvertToFp16
from polygraphy.logger import G_LOGGER

G_LOGGER.module_severity = G_LOGGER.CRITICAL


def branch(name: str, base: float, read: bool) -> onnx.GraphProto:
    init = nh.from_array(np.array([base, base + 1, base + 2], np.float32), f"w_{name}")
    nodes = [h.make_node("Neg", [f"w_{name}"], [f"o_{name}"])] if read else []
    out = f"o_{name}" if read else f"w_{name}"
    return h.make_graph(nodes, name, [], [h.make_tensor_value_info(out, T.FLOAT, [3])], [init])


bad = 0
for read in (True, False):
    g = h.make_graph(
        [h.make_node("If", ["c"], ["y"], then_branch=branch("then", 1.0, read), else_branch=branch("else", 4.0, read))],
        "g",
        [h.make_tensor_value_info("c", T.BOOL, [])],
        [h.make_tensor_value_info("y", T.FLOAT, [3])],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    out = ConvertToFp16(m)()
    label = "a node reads the branch initializer" if read else "the branch returns its initializer"
    try:
        onnx.checker.check_model(out, full_check=True)
        print(f"{label}: converted model valid")
    except Exception as e:  # noqa: BLE001 - the checker's refusal is the finding
        print(f"{label}: {type(e).__name__}: {str(e).splitlines()[0][:200]}")
        bad = 1
sys.exit(bad)
