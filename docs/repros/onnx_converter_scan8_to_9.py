"""onnx's version converter, Scan-8 → Scan-9 (`onnx/version_converter/adapters/scan_8_9.h`): a batch-1 Scan-8
converted to opset 9 is no longer the same model. Exits 1 while the defect is present (onnx, onnxruntime, numpy)."""

import sys

import numpy as np
import onnx
import onnx.version_converter
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h


def model(relu: bool) -> onnx.ModelProto:
    """sf, ys = Scan-8(s0, x') summing the rows of x' (batch 1); x' = Relu(x) or x."""
    body = h.make_graph(
        [h.make_node("Add", ["s", "xt"], ["s2"]), h.make_node("Identity", ["xt"], ["yt"])],
        "body",
        [h.make_tensor_value_info("s", T.FLOAT, [2]), h.make_tensor_value_info("xt", T.FLOAT, [2])],
        [h.make_tensor_value_info("s2", T.FLOAT, [2]), h.make_tensor_value_info("yt", T.FLOAT, [2])],
    )
    nodes = [h.make_node("Relu", ["x"], ["xr"])] if relu else []
    nodes.append(h.make_node("Scan", ["", "s0", "xr" if relu else "x"], ["sf", "ys"], body=body, num_scan_inputs=1))
    graph = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info("s0", T.FLOAT, [1, 2]), h.make_tensor_value_info("x", T.FLOAT, [1, 3, 2])],
        [h.make_tensor_value_info("sf", T.FLOAT, [1, 2]), h.make_tensor_value_info("ys", T.FLOAT, [1, 3, 2])],
    )
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", 8)])
    m.ir_version = 3
    return m


feeds = {"s0": np.zeros((1, 2), np.float32), "x": np.arange(6, dtype=np.float32).reshape(1, 3, 2)}
bad = 0
for relu in (False, True):
    m = model(relu)
    onnx.checker.check_model(m, full_check=True)
    want = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
    out = onnx.version_converter.convert_version(m, 9)
    try:
        onnx.checker.check_model(out, full_check=True)
        got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)
        same = all(a.shape == b.shape and np.allclose(a, b) for a, b in zip(want, got))
        print(f"relu={relu}: converted model runs, same outputs: {same}")
        bad += not same
    except Exception as exc:  # noqa: BLE001 - the checker or onnxruntime refusing the converted model
        print(f"relu={relu}: converted model refused: {type(exc).__name__}: {str(exc)[:200]}")
        bad += 1
sys.exit(1 if bad else 0)
