"""onnx-tool's constant folding (`onnx_tool.Model(m, {"constant_folding": True})`, as `model_constant_folding`
calls it) folds a `Dropout` in training mode as a copy of its input: `DropoutNode` (`node.py`) inherits
`FusedBase.value_infer`, which returns input 0 whatever `training_mode` and `ratio` say. Operators.md Dropout-12+: "If
training_mode is true then the output Y will be a random dropout" (`scale * data * mask`, scale = 1 / (1 - ratio),
a new mask on every run); onnx 1.23's schemas mark Dropout `NodeDeterminism.NonDeterministic`.

Model (opset 13, IR 8): y = x + Dropout(c, ratio=0.5, training_mode=True), c = ones(64), ratio and training_mode
initializers, x: float[64]. onnxruntime: two runs differ and about half of Dropout's output is 0, the rest 2; after
folding the Dropout is gone and y = x + 1 on every run. Exits 1 while that holds, 0 when fixed."""

import tempfile
from pathlib import Path

import numpy as np
import onnx
import onnx_tool
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model() -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Dropout", ["c", "ratio", "train"], ["d"]), helper.make_node("Add", ["x", "d"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64])],
        [
            numpy_helper.from_array(np.ones(64, np.float32), "c"),
            numpy_helper.from_array(np.array(0.5, np.float32), "ratio"),
            numpy_helper.from_array(np.array(True), "train"),
        ],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def runs(m: onnx.ModelProto) -> list[np.ndarray]:
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return [session.run(None, {"x": np.zeros(64, np.float32)})[0] for _ in range(2)]


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnx_tool", getattr(onnx_tool, "__version__", "?"))
    m = model()
    a, b = runs(m)
    print(f"given: two runs differ: {not np.array_equal(a, b)}; values {sorted(set(a.tolist()))}")
    with tempfile.TemporaryDirectory() as d:
        given = onnx.ModelProto.FromString(m.SerializeToString())
        onnx_tool.Model(given, {"constant_folding": True}).graph.save_model(str(Path(d) / "o.onnx"), rawmodel=given)
        out = onnx.load(str(Path(d) / "o.onnx"))
    ops = [n.op_type for n in out.graph.node]
    c, e = runs(out)
    print(f"folded: ops {ops}; two runs differ: {not np.array_equal(c, e)}; values {sorted(set(c.tolist()))}")
    bad = "Dropout" not in ops and np.array_equal(c, e) and np.array_equal(c, np.ones(64, np.float32))
    if bad:
        print("BUG: onnx-tool folded a training-mode Dropout as a copy of its input")
    raise SystemExit(1 if bad else 0)
