"""onnx-tool's constant folding of Slice ignores a negative axis (and any axis above 4, and every axis but the first
when axes is omitted): the folded initializer keeps the whole input, and the model no longer runs.

Operators.md, Slice-13: axes "Negative value means counting dimensions from the back. Accepted range is [-r, r-1]";
when axes is omitted it is [0, ..., len(starts) - 1]. onnx-tool 1.0.1 `SliceNode.value_infer` slices only for
`i == 0 .. 4` of the axes it is given and, with three inputs, slices `data[starts[0]:ends[0]]` alone. Its shape
function normalizes the axes (`_axes_neg2pos`), so the folded value disagrees with the shape it inferred. Model:
`s = Slice(c, starts, ends, axes)`, `c = arange(24).reshape(2, 3, 4)` an initializer, `y = x + s`, opset 17;
operation: `onnx_tool.model_constant_folding`. axes = [2] (control) folds right. Exits 1 while any spelling folds to
another value than onnxruntime computes on the original model.
"""

import sys
import tempfile
import warnings
from pathlib import Path

import numpy as np
import onnx
import onnx_tool
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

warnings.simplefilter("ignore")
c = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
spellings = {  # name: (starts, ends, axes or None, expected slice)
    "axes=[2] (control)": ([1], [3], [2], c[:, :, 1:3]),
    "axes=[-1]": ([1], [3], [-1], c[:, :, 1:3]),
    "axes=[-2]": ([1], [3], [-2], c[:, 1:3, :]),
    "axes omitted, two starts": ([0, 1], [2, 3], None, c[0:2, 1:3, :]),
}
bad = []
for name, (starts, ends, axes, want) in spellings.items():
    inits = [
        numpy_helper.from_array(c, "c"),
        numpy_helper.from_array(np.array(starts, np.int64), "st"),
        numpy_helper.from_array(np.array(ends, np.int64), "en"),
    ]
    ins = ["c", "st", "en"]
    if axes is not None:
        inits.append(numpy_helper.from_array(np.array(axes, np.int64), "ax"))
        ins.append("ax")
    g = helper.make_graph(
        [helper.make_node("Slice", ins, ["s"]), helper.make_node("Add", ["x", "s"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, list(want.shape))],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(want.shape))],
        inits,
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    feed = {"x": np.zeros(want.shape, np.float32)}
    ref = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)[0]
    assert np.array_equal(ref, want)
    with tempfile.TemporaryDirectory() as d:
        path = str(Path(d) / "f.onnx")
        onnx_tool.model_constant_folding(m, path)
        folded = onnx.load(path)
    s = {t.name: numpy_helper.to_array(t) for t in folded.graph.initializer}.get("s")
    try:
        got = ort.InferenceSession(folded.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)[0]
        result = "same" if np.array_equal(got, ref) else "different values"
    except Exception as exc:  # noqa: BLE001 - the folded model failing is the finding
        result = f"fails to run: {str(exc).splitlines()[0][:120]}"
    print(f"{name}: folded s shape {None if s is None else list(s.shape)} (want {list(want.shape)}); {result}")
    if result != "same":
        bad.append(name)
print(f"{len(bad)} of {len(spellings)} Slice spellings folded wrong")
sys.exit(1 if bad else 0)
