"""onnx-tool's save_model, when no shape inference ran (its constant folding, its Conv+BN fusion, its node
reordering), annotates every intermediate value FLOAT: an int64 value is declared float.

y = Cast(Shape(x), to=FLOAT) + 1, x: float[2, 3]: s = Shape(x) is int64 (Operators.md, Shape: "T1: tensor(int64)").
The tool's ``Tensor`` of a value it read no declaration for starts with dtype float32, and ``make_graph_onnx``
writes a value_info for every value it holds: onnx_tool.model_reorder_nodes saves s as FLOAT (no shape), an
annotation the run breaks (and onnx's checker with shape inference refuses: "Inferred elem type differs from
existing elem type"). Exits 1 while s is annotated FLOAT.
"""

import sys
import tempfile
import warnings
from pathlib import Path

import onnx
import onnx_tool
from onnx import TensorProto, helper

vi = helper.make_tensor_value_info
g = helper.make_graph(
    [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Cast", ["s"], ["f"], to=TensorProto.FLOAT),
        helper.make_node("Add", ["f", "one"], ["y"]),
    ],
    "g",
    [vi("x", TensorProto.FLOAT, [2, 3])],
    [vi("y", TensorProto.FLOAT, [2])],
    [helper.make_tensor("one", TensorProto.FLOAT, [], [1.0])],
)
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
onnx.checker.check_model(m, full_check=True)
with tempfile.TemporaryDirectory() as d, warnings.catch_warnings():
    warnings.simplefilter("ignore")
    onnx_tool.model_reorder_nodes(m, str(Path(d) / "out.onnx"))
    saved = onnx.load(str(Path(d) / "out.onnx"))
s = next((v for v in saved.graph.value_info if v.name == "s"), None)
elem = TensorProto.DataType.Name(s.type.tensor_type.elem_type) if s is not None else None
try:
    onnx.checker.check_model(saved, full_check=True)
    verdict = "accepted"
except Exception as exc:  # noqa: BLE001
    verdict = f"rejected: {str(exc).splitlines()[-1]}"
print(f"value_info of s = Shape(x) after save_model: {elem} (the op's output is INT64); checker: {verdict}")
sys.exit(1 if elem not in (None, "INT64") else 0)
