"""onnx-graphsurgeon's `fold_constants` (`graph.toposort().fold_constants().cleanup()`, also with `fold_shapes=False`
or `partitioning="recursive"`, and so Polygraphy's `surgeon sanitize --fold-constants`) folds random ops: a
`RandomNormal`, `RandomUniform`, `RandomNormalLike`, `RandomUniformLike`, `Bernoulli` or `Multinomial` whose inputs
are constants (or that has none) is evaluated once with onnxruntime and its sample written as an initializer.
`Graph.fold_constants` has no test of an op's determinism (`ir/graph.py`: any node whose inputs are constants is
foldable). Operators.md: these ops generate random values on every run (`seed` only makes the sequence
reproducible); onnx 1.23's schemas mark each `NodeDeterminism.NonDeterministic`, and onnxruntime's constant folding
leaves them. After gs every run returns the same "random" tensor.

Model (opset 17, IR 8): y = x + RandomNormal(shape=[3]) (and y = x + Bernoulli(p), p = [0.5] * 64 an initializer,
opset 15). Two runs of one onnxruntime session of the given model differ; exits 1 while the folded model holds no
random op and two runs of one session of it give identical outputs, 0 when fixed."""

import numpy as np
import onnx
import onnx_graphsurgeon as gs
import onnxruntime as ort
from onnx import TensorProto, helper

RANDOM = {"RandomNormal", "RandomUniform", "RandomNormalLike", "RandomUniformLike", "Bernoulli", "Multinomial"}


def model(op: str) -> onnx.ModelProto:
    n = 3 if op == "RandomNormal" else 64
    nodes = [helper.make_node("Add", ["x", "r"], ["y"])]
    inits = []
    if op == "RandomNormal":
        nodes.insert(0, helper.make_node("RandomNormal", [], ["r"], shape=[n]))
    else:
        nodes.insert(0, helper.make_node("Bernoulli", ["p"], ["r"]))
        inits.append(helper.make_tensor("p", TensorProto.FLOAT, [n], [0.5] * n))
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [n])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [n])],
        inits,
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17 if op == "RandomNormal" else 15)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def two_runs(m: onnx.ModelProto, n: int) -> list[np.ndarray]:
    """Two runs of one session (its generator advances between runs)."""
    x = np.zeros(n, np.float32)
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return [session.run(None, {"x": x})[0] for _ in range(2)]


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnx_graphsurgeon", gs.__version__)
    bad = False
    for op in ("RandomNormal", "Bernoulli"):
        m = model(op)
        n = m.graph.input[0].type.tensor_type.shape.dim[0].dim_value
        a, b = two_runs(m, n)
        print(f"{op}: the given model, two runs differ: {not np.array_equal(a, b)}")
        folded = gs.export_onnx(gs.import_onnx(m).toposort().fold_constants().cleanup())
        ops = [node.op_type for node in folded.graph.node]
        fa, fb = two_runs(folded, n)
        frozen = not RANDOM & set(ops) and np.array_equal(fa, fb)
        print(
            f"{op}: after fold_constants nodes {ops}, initializers {[i.name for i in folded.graph.initializer]}; "
            f"two runs identical: {np.array_equal(fa, fb)}{' (the draw is frozen)' if frozen else ''}"
        )
        bad |= bool(frozen)
    raise SystemExit(1 if bad else 0)
