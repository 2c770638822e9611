"""onnx-tool reads INT8 / UINT8 / INT16 / UINT16 / BOOL initializers stored in int32_data as zeros.

onnx.proto, TensorProto.int32_data: "For int32, uint8, int8, uint16, int16, bool, float8 and float16 values" — the
field a tensor not in raw_data keeps these types in (onnx.helper.make_tensor writes them there). onnx-tool 1.0.1
`tensor.tensorproto2ndarray` starts from `numpy.zeros` and reads int32_data only for INT32 and FLOAT16, so every
other type's values stay 0; `save_model` then writes the zeros (as raw_data). Model: `y = Reshape(c, s)`, `c = [1, 2]`
(or [True, False]), `s` a graph input (nothing folds), opset 17; operation: `onnx_tool.model_reorder_nodes`. The same
initializer in raw_data (control) is kept. Exits 1 while any type comes back changed.
"""

import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnx_tool
from onnx import TensorProto, helper, numpy_helper

warnings.simplefilter("ignore")
bad = []
for elem, vals in (
    (TensorProto.INT8, [1, 2]),
    (TensorProto.UINT8, [1, 2]),
    (TensorProto.INT16, [1, 2]),
    (TensorProto.UINT16, [1, 2]),
    (TensorProto.BOOL, [True, False]),
):
    for storage in ("int32_data", "raw_data (control)"):
        dtype = helper.tensor_dtype_to_np_dtype(elem)
        if storage == "int32_data":
            c = helper.make_tensor("c", elem, [2], vals)
        else:
            c = numpy_helper.from_array(np.array(vals, dtype), "c")
        g = helper.make_graph(
            [helper.make_node("Reshape", ["c", "s"], ["y"])],
            "g",
            [helper.make_tensor_value_info("s", TensorProto.INT64, [1])],
            [helper.make_tensor_value_info("y", elem, [2])],
            [c],
        )
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
        onnx.checker.check_model(m, full_check=True)
        with tempfile.TemporaryDirectory() as d:
            path = str(Path(d) / "r.onnx")
            onnx_tool.model_reorder_nodes(m, path)
            out = numpy_helper.to_array({t.name: t for t in onnx.load(path).graph.initializer}["c"])
        name = TensorProto.DataType.Name(elem)
        print(f"{name} in {storage}: given {vals}, written {out.tolist()}")
        if not np.array_equal(out, np.array(vals, dtype)):
            bad.append(f"{name}/{storage}")
print(f"{len(bad)} initializers changed: {', '.join(bad)}")
sys.exit(1 if bad else 0)
