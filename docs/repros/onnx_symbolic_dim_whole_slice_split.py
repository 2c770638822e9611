"""onnx shape inference (1.16.2 to 1.23.2) forgets a symbolic dim that a whole-axis Slice, a one-output Split or
a Tile by ones keeps: on x: float[n2, n3, n5]

- ``slice``: y = Slice(x, starts=[0], ends=[INT64_MAX], axes=[0]) is inferred [unk__0, n3, n5];
- ``split``: y = Split(x, axis=0) with one output (Split-13; Split-18 with num_outputs=1 alike) likewise;
- ``tile``: y = Tile(x, repeats=[1, 1, 1]) is inferred [unk__0, unk__1, unk__2];

where the spec gives [n2, n3, n5]: Slice clamps ends to [0, dim] for a positive step (Operators.md Slice), so 0 to
INT64_MAX with step 1 is the whole axis, Split into one part returns its input's size on the axis (Operators.md
Split) and Tile's output dim i is input dim i times repeats[i] (Operators.md Tile). onnx infers the static dims exactly (x: [2, 3, 5] gives [2, 3, 5]) and onnxruntime runs the shape of x.
Usage: python onnx_symbolic_dim_whole_slice_split.py [slice|split|tile]. Exit 1 while the gap is present.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(kind: str, dims) -> onnx.ModelProto:
    if kind == "slice":
        consts = [
            numpy_helper.from_array(np.array(v, np.int64), n) for n, v in (("s", [0]), ("e", [2**63 - 1]), ("a", [0]))
        ]
        node = helper.make_node("Slice", ["x", "s", "e", "a"], ["y"])
    elif kind == "tile":
        consts = [numpy_helper.from_array(np.array([1, 1, 1], np.int64), "r")]
        node = helper.make_node("Tile", ["x", "r"], ["y"])
    else:
        consts, node = [], helper.make_node("Split", ["x"], ["y"], axis=0)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, dims)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [None, None, None])],  # rank only: nothing declared
        consts,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def inferred(m: onnx.ModelProto) -> list:
    out = onnx.shape_inference.infer_shapes(m, strict_mode=True)
    return [
        d.dim_value if d.HasField("dim_value") else d.dim_param for d in out.graph.output[0].type.tensor_type.shape.dim
    ]


kind = sys.argv[1] if len(sys.argv) > 1 else "slice"
symbolic, static = model(kind, ["n2", "n3", "n5"]), model(kind, [2, 3, 5])
onnx.checker.check_model(symbolic, full_check=True)
x = np.zeros((2, 3, 5), np.float32)
ran = (
    ort.InferenceSession(symbolic.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0].shape
)
print(
    f"onnx {onnx.__version__}, {kind}: inferred {inferred(symbolic)} on [n2, n3, n5], {inferred(static)} on [2, 3, 5]; "
    f"onnxruntime runs {list(ran)} on a [2, 3, 5] input"
)
sys.exit(0 if inferred(symbolic) == ["n2", "n3", "n5"] else 1)
