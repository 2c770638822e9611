"""onnx-graphsurgeon writes a FLOAT8E4M3FNUZ constant as FLOAT8E4M3FN: its bytes are then read in the other format
(every value doubles).

onnx.proto / docs/Float8.md: FLOAT8E4M3FN and FLOAT8E4M3FNUZ are two element types with different exponent biases
(7 and 8), so one byte pattern means a different number in each. onnx-graphsurgeon 0.6.1
`exporters/onnx_exporter.py` `dtype_to_onnx` maps `ml_dtypes.float8_e4m3fnuz` to FLOAT8E4M3FN (as it maps
float8_e4m3fn). Model built with gs's own API: `y = x + Cast(c, to=FLOAT)`, `c = gs.Constant` of
`ml_dtypes.float8_e4m3fnuz` [1, 2]; exported with `gs.export_onnx`. The E5M2FNUZ twin (control) is written with its
own type. Exits 1 while the FNUZ constant is written as another type or runs to other values.
"""

import sys

import ml_dtypes
import numpy as np
import onnx_graphsurgeon as gs
from onnx import TensorProto
from onnx.reference import ReferenceEvaluator

bad = []
for dtype, want_type in (
    (ml_dtypes.float8_e5m2fnuz, TensorProto.FLOAT8E5M2FNUZ),
    (ml_dtypes.float8_e4m3fnuz, TensorProto.FLOAT8E4M3FNUZ),
):
    vals = np.array([1.0, 2.0], dtype=dtype)
    x = gs.Variable("x", dtype=np.float32, shape=[2])
    cf = gs.Variable("cf", dtype=np.float32, shape=[2])
    y = gs.Variable("y", dtype=np.float32, shape=[2])
    nodes = [
        gs.Node("Cast", inputs=[gs.Constant("c", vals)], outputs=[cf], attrs={"to": TensorProto.FLOAT}),
        gs.Node("Add", inputs=[x, cf], outputs=[y]),
    ]
    m = gs.export_onnx(gs.Graph(nodes=nodes, inputs=[x], outputs=[y], opset=19))
    c = {t.name: t for t in m.graph.initializer}["c"]
    got = ReferenceEvaluator(m).run(None, {"x": np.zeros(2, np.float32)})[0]
    name = np.dtype(dtype).name
    print(f"{name}: written as {TensorProto.DataType.Name(c.data_type)}, runs to {got.tolist()} (want [1.0, 2.0])")
    if c.data_type != want_type or got.tolist() != [1.0, 2.0]:
        bad.append(name)
sys.exit(1 if bad else 0)
