"""onnx-tool's Reshape shape inference ignores allowzero: a 0 in the shape is always copied from the input, so an
allowzero=1 reshape to an empty tensor fails its own volume assertion.

Operators.md, Reshape-14: "If 'allowzero' is set, and the new shape includes 0, the dimension will be set explicitly
to zero (i.e. not taken from input tensor)". onnx-tool 1.0.1 `ReshapeNode.shape_infer` (and `value_infer`) never
read `allowzero`: each 0 becomes `srcshape[i]`, then `assert raw == volume(newshape)` fails. Model:
`y = Reshape(x, s, allowzero=1)`, `x: float[0, 3]`, `s = [3, 0]` an initializer (also `x: float[2, 0, 3]`,
`s = [0, 3]`), opset 17; operation: `Graph.shape_infer(feeds)` (what `onnx_tool.model_profile` runs). A reshape
with no 0 under allowzero=1 (control) is right. Exits 1 while any shape differs from onnxruntime's or raises.
"""

import sys
import warnings

import numpy as np
import onnx
import onnx_tool
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

warnings.simplefilter("ignore")
bad = []
for xs, shape in (([2, 3], [3, 2]), ([0, 3], [3, 0]), ([2, 0, 3], [0, 3])):
    g = helper.make_graph(
        [helper.make_node("Reshape", ["x", "s"], ["y"], allowzero=1)],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, xs)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)],
        [numpy_helper.from_array(np.array(shape, np.int64), "s")],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    feeds = {"x": np.zeros(xs, np.float32)}
    want = list(
        ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0].shape
    )
    try:
        graph = onnx_tool.Model(m).graph
        graph.shape_infer(feeds)
        got = [int(d) for d in graph.tensormap["y"].get_shape()]
        result = "same" if got == want else f"inferred {got}"
    except Exception as exc:  # noqa: BLE001 - the tool's failure is the finding
        result = f"raises {type(exc).__name__}: {exc}"
    print(f"Reshape({xs} -> {shape}, allowzero=1): onnxruntime {want}; onnx-tool {result}")
    if result != "same":
        bad.append(str(shape))
sys.exit(1 if bad else 0)
