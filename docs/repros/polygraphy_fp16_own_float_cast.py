"""Polygraphy's float16 conversion (``ConvertToFp16``: onnxconverter-common's ``convert_float_to_float16(model,
keep_io_types=True, disable_shape_infer=True)``) takes the model's own ``Cast(x, to=FLOAT)`` after a graph input for
the Cast back to float it inserts itself, and removes both.

A ``Cast`` to the type its input already has is valid (Operators.md §Cast) and exporters write it. The conversion
inserts ``Cast(x, to=FLOAT16)`` for the kept-float input; ``remove_unnecessary_cast_node``
(``onnxconverter_common/float16.py``) then pairs it with the model's Cast(to=FLOAT) as "cast16 -> cast32" and
rewires the Cast's reader to ``x``. With one reader the reader computes float where the converter declared its
output float16 (onnxruntime: "Type (tensor(float16)) of output arg ... does not match expected type
(tensor(float))"); with two readers the rewiring meets a list of readers and raises ``AttributeError: 'list' object
has no attribute 'input'``. Exits 1 while either form is not converted to a model onnxruntime loads; 0 once both are.
"""

import sys

import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from polygraphy.backend.onnx import ConvertToFp16
from polygraphy.logger import G_LOGGER

G_LOGGER.module_severity = G_LOGGER.CRITICAL


def model(readers: int):
    nodes = [h.make_node("Cast", ["x"], ["c"], to=T.FLOAT, name="cast")]
    nodes += [h.make_node(op, ["c"], [f"y{i}"], name=op.lower()) for i, op in enumerate(["Neg", "Abs"][:readers])]
    g = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, [2, 3])],
        [h.make_tensor_value_info(f"y{i}", T.FLOAT, [2, 3]) for i in range(readers)],
    )
    m = h.make_model(g, opset_imports=[h.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


bad = 0
for readers in (1, 2):
    try:
        out = ConvertToFp16(model(readers))()
        ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"])
        print(f"{readers} reader(s) of Cast(x, to=FLOAT): converted model loads")
    except Exception as e:  # noqa: BLE001 - the conversion's crash and onnxruntime's refusal are both the finding
        print(f"{readers} reader(s) of Cast(x, to=FLOAT): {type(e).__name__}: {str(e).splitlines()[0][:200]}")
        bad = 1
sys.exit(bad)
