"""onnxslim (`onnxslim.slim`: its constant folding, the vendored onnx_graphsurgeon's `Graph.fold_constants` in
`third_party/onnx_graphsurgeon/ir/graph.py`, whose `is_foldable` excludes Q / DQ / DynamicQuantizeLinear /
SequenceEmpty and no op for drawing) folds a `Bernoulli` of a constant probability: it is evaluated once and its
sample written as a constant. Operators.md Bernoulli: "draws binary random numbers" on every run; onnx 1.23's schemas
mark it `NodeDeterminism.NonDeterministic`; onnxruntime's folding keeps it. (The same code as found.md row 1351's
onnx-graphsurgeon, in onnxslim's own copy.)

Model: y = x + Bernoulli(p), p = [0.5] * 64 an initializer (opset 15). Two runs of one onnxruntime session of the
given model differ; exits 1 while the slimmed model holds no Bernoulli and two runs of it are identical, 0 when
fixed."""

import numpy as np
import onnx
import onnxruntime as ort
import onnxslim
from onnx import TensorProto, helper, numpy_helper


def bernoulli_model() -> onnx.ModelProto:
    """y = x + Bernoulli(p), p = [0.5] * 64 an initializer, opset 15, IR 8."""
    p = numpy_helper.from_array(np.full(64, 0.5, np.float32), "p")
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [64])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [64])
    nodes = [helper.make_node("Bernoulli", ["p"], ["r"]), helper.make_node("Add", ["x", "r"], ["y"])]
    m = helper.make_model(
        helper.make_graph(nodes, "g", [x], [y], [p]), opset_imports=[helper.make_opsetid("", 15)], ir_version=8
    )
    onnx.checker.check_model(m, full_check=True)
    return m


def draws(m: onnx.ModelProto) -> bool:
    """Whether two runs of one onnxruntime session differ (its generator advances between runs)."""
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    first, second = (session.run(None, {"x": np.zeros(64, np.float32)})[0] for _ in range(2))
    return not np.array_equal(first, second)


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnxslim", onnxslim.__version__)
    given = bernoulli_model()
    slimmed = onnxslim.slim(onnx.ModelProto.FromString(given.SerializeToString()))
    ops = [n.op_type for n in slimmed.graph.node]
    print(f"given model draws: {draws(given)}; slimmed: ops {ops}, draws: {draws(slimmed)}")
    bad = "Bernoulli" not in ops and draws(given) and not draws(slimmed)
    if bad:
        print("BUG: onnxslim froze a per-run Bernoulli draw into a constant")
    raise SystemExit(1 if bad else 0)
