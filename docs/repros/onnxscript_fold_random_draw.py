"""onnxscript's optimizer (`onnxscript.optimizer.optimize`, constant folding in `optimizer/_constant_folding.py`) folds
two ops that draw on every run: a `Bernoulli` of a constant probability and a `Dropout` in training mode
(`training_mode` a constant true) of a constant input. Its list of ops it must not fold, `_NON_DETERMINISTIC_OPS`,
names RandomUniform, RandomNormal, their *Like forms and Multinomial, not Bernoulli, and its Dropout rule only
handles the inference cases (training_mode false, ratio 0); otherwise the node is evaluated once and its sample
written as a constant. Operators.md Bernoulli: "draws binary random numbers"; Dropout-12+: "If training_mode is
true then the output Y will be a random dropout"; onnx 1.23's schemas mark both `NodeDeterminism.NonDeterministic`.

Models: y = x + Bernoulli(p), p = [0.5] * 64 an initializer (opset 15); y = x + Dropout(c, 0.5, True), c = ones(64)
an initializer (opset 13). Two runs of one onnxruntime session of each given model differ; exits 1 while the
optimized model holds no Bernoulli / Dropout and two runs of it are identical, 0 when fixed."""

import numpy as np
import onnx
import onnxruntime as ort
import onnxscript
import onnxscript.optimizer
from onnx import TensorProto, helper, numpy_helper


def model(op: str) -> onnx.ModelProto:
    if op == "Bernoulli":
        nodes = [helper.make_node("Bernoulli", ["p"], ["r"])]
        inits = [numpy_helper.from_array(np.full(64, 0.5, np.float32), "p")]
    else:
        nodes = [helper.make_node("Dropout", ["c", "ratio", "train"], ["r"])]
        inits = [
            numpy_helper.from_array(np.ones(64, np.float32), "c"),
            numpy_helper.from_array(np.array(0.5, np.float32), "ratio"),
            numpy_helper.from_array(np.array(True), "train"),
        ]
    nodes.append(helper.make_node("Add", ["x", "r"], ["y"]))
    g = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [64])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [64])],
        inits,
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 15 if op == "Bernoulli" else 13)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def differ(m: onnx.ModelProto) -> bool:
    """Whether two runs of one session (its generator advances between runs) give different outputs."""
    x = np.zeros(64, np.float32)
    session = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    a, b = (session.run(None, {"x": x})[0] for _ in range(2))
    return not np.array_equal(a, b)


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnxscript", onnxscript.__version__)
    bad = False
    for op in ("Bernoulli", "Dropout"):
        m = model(op)
        out = onnxscript.optimizer.optimize(onnx.ModelProto.FromString(m.SerializeToString()))
        ops = [n.op_type for n in out.graph.node]
        frozen = op not in ops and differ(m) and not differ(out)
        print(f"{op}: given model draws: {differ(m)}; after optimize: ops {ops}, draws: {differ(out)}")
        bad |= frozen
    if bad:
        print("BUG: the optimizer froze a per-run draw into a constant")
    raise SystemExit(1 if bad else 0)
