"""onnxslim (`onnxslim.slim`: `dead_node_elimination`, `core/optimization/dead_node_elimination.py`) erases every
main-graph `Dropout` as it erases an Identity, without reading `training_mode`. Operators.md Dropout-12+: "If
training_mode is true then the output Y will be a random dropout" (`scale * data * mask`, scale = 1 / (1 - ratio));
only with training_mode absent or false, or ratio 0, is the output a copy of the input (onnxruntime's own
EliminateDropout and onnxscript's Dropout rule test exactly that).

Model (opset 13, IR 8): y = Relu(Dropout(x, ratio=0.5, training_mode=True)), ratio and training_mode initializers,
x: float[64]. onnxruntime: about half of y is 0 and the rest 2 * x (x = ones); after slim the Dropout is gone and
y = Relu(x) = ones. Exits 1 while the Dropout is erased and y equals Relu(x), 0 when fixed."""

import numpy as np
import onnx
import onnxruntime as ort
import onnxslim
from onnx import TensorProto, helper, numpy_helper


def model() -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Dropout", ["x", "ratio", "train"], ["d"]), helper.make_node("Relu", ["d"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64])],
        [
            numpy_helper.from_array(np.array(0.5, np.float32), "ratio"),
            numpy_helper.from_array(np.array(True), "train"),
        ],
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def run(m: onnx.ModelProto) -> np.ndarray:
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return session.run(None, {"x": np.ones(64, np.float32)})[0]


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnxslim", onnxslim.__version__)
    m = model()
    given = run(m)
    print(f"given: ops {[n.op_type for n in m.graph.node]}; y has {int((given == 0).sum())} zeros of 64, "
          f"values {sorted(set(given.tolist()))}")
    out = onnxslim.slim(onnx.ModelProto.FromString(m.SerializeToString()))
    ops = [n.op_type for n in out.graph.node]
    got = run(out)
    print(f"slimmed: ops {ops}; y values {sorted(set(got.tolist()))}")
    bad = "Dropout" not in ops and np.array_equal(got, np.ones(64, np.float32)) and not np.array_equal(given, got)
    if bad:
        print("BUG: onnxslim erased a training-mode Dropout: the output is its input, not a dropout")
    raise SystemExit(1 if bad else 0)
