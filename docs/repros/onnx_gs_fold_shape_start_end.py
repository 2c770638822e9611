"""onnx-graphsurgeon's `Graph.fold_constants()` folds a `Shape` node of a statically shaped input by its own code
(`fold_shape`, `fold_shape_gather`, `fold_shape_slice` in `ir/graph.py`) and never reads Shape's `start` / `end`
attributes (Operators.md Shape-15: the output is the slice `[start, end)` of the input's shape, negative values
counted from the rank, clamped): `Shape(x, start=1)` of x: float[2, 3, 4] is folded to [2, 3, 4] instead of [3, 4].
The folded model computes something else, or fails (a Reshape to the wrong target; an Expand to the wrong rank).

Model (opset 17): x: float[2, 3, 4]; s = Shape<start>(x) (or <start, end>); y = Shape(Reshape(x, Concat([-1], s))), the
shape the Reshape gives.
`fold_shapes=False` (no shape folding) and `start=0` without `end` (the whole shape) are the controls.
Exits 1 while a folded model's output differs from the given model's (or fails to run), 0 when fixed."""

import numpy as np
import onnx
import onnx_graphsurgeon as gs
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(**attrs) -> onnx.ModelProto:
    nodes = [
        helper.make_node("Shape", ["x"], ["s"], **attrs),
        helper.make_node("Concat", ["minus_one", "s"], ["target"], axis=0),
        helper.make_node("Reshape", ["x", "target"], ["r"]),
        helper.make_node("Shape", ["r"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 4])],
        [helper.make_tensor_value_info("y", TensorProto.INT64, [None])],
        [numpy_helper.from_array(np.array([-1], np.int64), "minus_one")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def run(m, x):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnx_graphsurgeon", gs.__version__)
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    bad = False
    for attrs in ({}, {"start": 1}, {"start": 1, "end": 2}, {"start": -1}):
        for fold_shapes in (True, False):
            m = model(**attrs)
            onnx.checker.check_model(m, full_check=True)
            want = run(m, x)
            graph = gs.import_onnx(m).toposort().fold_constants(fold_shapes=fold_shapes).cleanup()
            out = gs.export_onnx(graph)
            target = [numpy_helper.to_array(t).tolist() for t in out.graph.initializer if t.name == "target"]
            try:
                got = run(out, x)
                same = got.shape == want.shape and np.array_equal(got, want)
                said = f"y {got.tolist()} vs {want.tolist()}"
            except Exception as exc:  # noqa: BLE001 - the folded model's refusal is the finding
                same, said = False, f"fails to run: {str(exc).splitlines()[0][:120]}"
            print(f"Shape{attrs} fold_shapes={fold_shapes}: folded target {target}, {said}, same={same}")
            bad |= not same
    raise SystemExit(1 if bad else 0)
