"""onnx-tool reads and writes initializers through its own fixed dtype tables: STRING, UINT32, UINT64, INT4,
BFLOAT16 initializers a kept node reads make every save_model raise (or come back as another type).

onnx.proto / IR.md §Tensor element types: an initializer may be any TensorProto.DataType (UINT32, UINT64, INT4 since
IR 10, BFLOAT16, STRING); a pass that keeps the node reading it must write it back with its type and values.
onnx-tool 1.0.1 `tensor.onnxdtype2npdtype` has no entry for UINT32 / UINT64 / INT4 / BFLOAT16 (None: raw bytes read
as float64), and `npdtype2onnxdtype` compares a dtype with `numpy.bytes_` (a 'S1' array is not it: None), so
`Tensor.make_tensor_proto` calls `make_tensor(name, None, ...)`. Model: `y = Reshape(c, s)`, `c` the initializer,
`s` a graph input (nothing folds), opset 21, IR 10; operation: `onnx_tool.model_reorder_nodes` (a topological sort
and save_model). Exits 1 while any type raises or is written back differently; FLOAT / INT64 (controls) pass.
"""

import sys
import tempfile
import warnings
from pathlib import Path

import ml_dtypes
import numpy as np
import onnx
import onnx_tool
from onnx import TensorProto, helper, numpy_helper

warnings.simplefilter("ignore")
cases = {
    "FLOAT (control)": np.arange(4, dtype=np.float32),
    "INT64 (control)": np.arange(4, dtype=np.int64),
    "STRING": np.array([b"p", b"q"], dtype=object),
    "UINT32": np.arange(4, dtype=np.uint32),
    "UINT64": np.arange(4, dtype=np.uint64),
    "INT4": np.arange(-8, 8).astype(ml_dtypes.int4),
    "BFLOAT16": np.arange(4).astype(ml_dtypes.bfloat16),
}
bad = []
for name, arr in cases.items():
    c = numpy_helper.from_array(arr, "c")
    g = helper.make_graph(
        [helper.make_node("Reshape", ["c", "s"], ["y"])],
        "g",
        [helper.make_tensor_value_info("s", TensorProto.INT64, [1])],
        [helper.make_tensor_value_info("y", c.data_type, [arr.size])],
        [c],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
    onnx.checker.check_model(m, full_check=True)
    with tempfile.TemporaryDirectory() as d:
        path = str(Path(d) / "r.onnx")
        try:
            onnx_tool.model_reorder_nodes(m, path)
            out = {t.name: t for t in onnx.load(path).graph.initializer}["c"]
        except Exception as exc:  # noqa: BLE001 - the tool's failure is the finding
            result = f"raises {type(exc).__name__}: {exc}"
        else:
            same = out.data_type == c.data_type and out.SerializeToString() == c.SerializeToString()
            same = same or (out.data_type == c.data_type and np.array_equal(numpy_helper.to_array(out), arr))
            result = "kept" if same else f"written as {TensorProto.DataType.Name(out.data_type)} {list(out.dims)}"
    print(f"{name}: {result}")
    if result != "kept":
        bad.append(name)
print(f"{len(bad)} initializer types not written back: {', '.join(bad)}")
sys.exit(1 if bad else 0)
