"""onnxruntime's QDQ fusion (QDQSelectorActionTransformer, ORT_ENABLE_EXTENDED and ALL) turns a QDQ AveragePool-19
that writes `dilations` into com.microsoft.QLinearAveragePool with the attribute copied; QLinearAveragePool's schema
has no `dilations`, so the session refuses the model it made ("Unrecognized attribute: dilations").

Model (opset 19): q = Q(x, 1/32, 128); d = DQ(q); p = AveragePool(d, kernel_shape=[2, 2], dilations=[1, 1]);
y = DQ(Q(p, 1/16, 128)). Operators.md AveragePool-19 added `dilations` (default 1 along each axis); the model with it
omitted is fused and runs. Exits 1 while the fused model is refused or differs from the unoptimized run by more than
one output step, 0 when fixed (the group kept or fused correctly)."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper


def model(dilations) -> onnx.ModelProto:
    attrs = {"kernel_shape": [2, 2]}
    if dilations is not None:
        attrs["dilations"] = dilations
    inits = [
        numpy_helper.from_array(np.array(1 / 32, np.float32), "s"),
        numpy_helper.from_array(np.array(128, np.uint8), "z"),
        numpy_helper.from_array(np.array(1 / 16, np.float32), "so"),
        numpy_helper.from_array(np.array(128, np.uint8), "zo"),
    ]
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
        helper.make_node("DequantizeLinear", ["q", "s", "z"], ["d"]),
        helper.make_node("AveragePool", ["d"], ["p"], **attrs),
        helper.make_node("QuantizeLinear", ["p", "so", "zo"], ["pq"]),
        helper.make_node("DequantizeLinear", ["pq", "so", "zo"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 5, 5])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 2, 4, 4])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)


def run(m, level):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    so.log_severity_level = 3
    x = np.random.default_rng(0).uniform(-3, 3, (1, 2, 5, 5)).astype(np.float32)
    try:
        session = ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
        return session.run(None, {"x": x})[0]
    except Exception as e:  # noqa: BLE001 - the refusal is the finding
        return str(e).splitlines()[0][-120:]


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
    bad = False
    for dilations in (None, [1, 1]):
        m = model(dilations)
        onnx.checker.check_model(m, full_check=True)
        ref = run(m, ort.GraphOptimizationLevel.ORT_DISABLE_ALL)
        got = run(m, ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED)
        if isinstance(got, str):
            print("dilations", dilations, "ORT_ENABLE_EXTENDED refused:", got)
            bad = True
        else:
            diff = float(np.abs(got - ref).max())
            print("dilations", dilations, "max abs difference from ORT_DISABLE_ALL", diff)
            bad |= diff > 1 / 16 + 1e-6
    raise SystemExit(1 if bad else 0)
