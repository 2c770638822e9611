"""onnx-tool's constant folding crashes on a Slice whose ``axes`` input is omitted by an empty name while ``steps`` is
given.

Operators.md Slice-13: ``axes`` is optional ("If axes are omitted, they are set to [0, ..., r-1]") and so is
``steps``; IR.md: an optional input may be left out by an empty name, here the only way to give ``steps`` without
``axes``. ``SliceNode.value_infer`` (onnx_tool/node.py) reads a five-input Slice as ``axes = intensors[3]``
and iterates it; the absent input has no values, and the fold stops with "TypeError: iteration over a 0-d array".
Row 1331 is the same function's other reading of omitted / negative axes (a wrong fold). Here
``s = Slice(c, [0, 0, 0], [2, 3, 4], "", [1, 1, 2])``, ``c`` a ``[2, 3, 4]`` float initializer, ``y = x + s``; the
same Slice with ``axes = [0, 1, 2]`` written out folds right (the control).
Exits 1 while onnx-tool fails to fold it or folds it wrong; 0 once the folded model computes ``c[:, :, ::2]``.
"""

import sys
import tempfile
from pathlib import Path

import numpy as np
import onnx
import onnx_tool
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def model(axes):
    c = nh.from_array(np.arange(24, dtype=np.float32).reshape(2, 3, 4), "c")
    inits = [c] + [nh.from_array(np.array(v, np.int64), n) for n, v in (("st", [0, 0, 0]), ("en", [2, 3, 4]))]
    inits.append(nh.from_array(np.array([1, 1, 2], np.int64), "sp"))
    if axes:
        inits.append(nh.from_array(np.array([0, 1, 2], np.int64), "ax"))
    nodes = [
        h.make_node("Slice", ["c", "st", "en", "ax" if axes else "", "sp"], ["s"], name="slice"),
        h.make_node("Add", ["x", "s"], ["y"], name="add"),
    ]
    x = h.make_tensor_value_info("x", T.FLOAT, [2, 3, 2])
    y = h.make_tensor_value_info("y", T.FLOAT, [2, 3, 2])
    return h.make_model(h.make_graph(nodes, "g", [x], [y], inits), opset_imports=[h.make_opsetid("", 17)], ir_version=8)


def folded(m):
    """onnx-tool's fold (``onnx_tool.Model(m, {"constant_folding": True})``, then ``save_model``), or its error."""
    try:
        tool = onnx_tool.Model(m, {"constant_folding": True})
        with tempfile.TemporaryDirectory() as d:
            path = str(Path(d) / "out.onnx")
            tool.save_model(path)
            return onnx.load(path)
    except Exception as exc:  # noqa: BLE001 - the crash is the finding
        return f"{type(exc).__name__}: {exc}"


want = np.arange(24, dtype=np.float32).reshape(2, 3, 4)[:, :, ::2]
x = np.zeros((2, 3, 2), np.float32)
bad = False
for axes in (True, False):
    m = model(axes)
    onnx.checker.check_model(m, full_check=True)
    out = folded(m)
    if isinstance(out, str):
        print(f"axes {'given' if axes else 'omitted (empty name)'}: onnx-tool fails: {out}")
        bad = bad or not axes
        continue
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
    ok = np.array_equal(got, want)
    print(f"axes {'given' if axes else 'omitted (empty name)'}: folded, {'right' if ok else 'WRONG'}")
    bad = bad or (not ok and not axes)
sys.exit(1 if bad else 0)
