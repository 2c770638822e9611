"""Polygraphy's "mark all" (``ModifyOutputs(model, outputs=constants.MARK_ALL)``, ``--onnx-outputs mark all``) drops
the declared type of the model's own graph outputs.

``mark_outputs`` (``polygraphy/backend/onnx/util.py``) clears ``graph.output`` and declares each marked tensor from
``graph.value_info``, or with ``make_empty_tensor_value_info`` (no type) when it has no entry there. A graph output's
type is declared in ``graph.output``, not in ``value_info`` (IR.md §Graphs), so the model's own output ``y`` is
re-declared with no type, also after ``InferShapes(allow_onnxruntime=False)`` (onnx's inference writes no graph
output into ``value_info``; onnxruntime's symbolic inference, the default, does, and ``y`` keeps its type there).
The checker requires a type on every graph output (``check_value_info``: "Field 'type' of 'value_info' is required
but missing"), so the marked model is invalid although the given one declared ``y: float[2, 3]``. Exits 1 while the
model's own output ``y`` is marked without its type; 0 once it keeps it.
"""

import sys

import onnx
from onnx import TensorProto as T
from onnx import helper as h
from polygraphy import constants
from polygraphy.backend.onnx import InferShapes, ModifyOutputs
from polygraphy.logger import G_LOGGER

G_LOGGER.module_severity = G_LOGGER.CRITICAL

graph = h.make_graph(
    [h.make_node("Neg", ["x"], ["t"]), h.make_node("Relu", ["t"], ["y"])],
    "g",
    [h.make_tensor_value_info("x", T.FLOAT, [2, 3])],
    [h.make_tensor_value_info("y", T.FLOAT, [2, 3])],
)
model = h.make_model(graph, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(model, full_check=True)

bad = 0
for label, given in (
    ("as given", model),
    ("after InferShapes(allow_onnxruntime=False)", InferShapes(model, allow_onnxruntime=False)()),
    ("after InferShapes()", InferShapes(model)()),
):
    copy = onnx.ModelProto()
    copy.CopyFrom(given)
    marked = ModifyOutputs(copy, outputs=constants.MARK_ALL)()
    untyped = [o.name for o in marked.graph.output if not o.HasField("type")]
    bad |= "y" in untyped  # the model's own output, declared float[2, 3]
    print(f"{label}: marked outputs {[o.name for o in marked.graph.output]}, without a type: {untyped}")
    try:
        onnx.checker.check_model(marked, full_check=True)
    except onnx.checker.ValidationError as e:
        print("  checker:", str(e).splitlines()[0])
sys.exit(1 if bad else 0)
