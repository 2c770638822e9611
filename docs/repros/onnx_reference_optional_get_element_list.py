"""onnx's reference evaluator (`onnx/reference/ops/op_optional.py`, `op_optional_get_element.py`): the `Optional`
constructor returns its tensor wrapped in a one-element list (`[x]`) and `OptionalGetElement` returns its input as it
is, so the "element" it hands on is that list, not the tensor. A node reading it fails: `Mul` raises
"AttributeError: 'list' object has no attribute 'dtype'".

Operators.md OptionalGetElement-18 (and -15): "If the input is an optional type, it outputs the element in the
input"; Optional-15: "Constructs an optional-type value containing either an empty optional of a certain type
specified by the attribute, or a non-empty value containing the input element". So
`Mul(OptionalGetElement(Optional(x)), 1)` is `x`, as onnxruntime computes. Exits 1 while the evaluator fails (or
returns anything but `x`), 0 when fixed. The full checker passes the model; both opsets 15 and 18 are tried."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator


def model(opset: int) -> onnx.ModelProto:
    graph = helper.make_graph(
        [
            helper.make_node("Optional", ["x"], ["o"]),
            helper.make_node("OptionalGetElement", ["o"], ["e"]),
            helper.make_node("Mul", ["e", "one"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
        [numpy_helper.from_array(np.array(1, np.float32), "one")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    bad = False
    for opset in (15, 18):
        m = model(opset)
        onnx.checker.check_model(m, full_check=True)
        want = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
        assert np.array_equal(want, x), want
        try:
            got = ReferenceEvaluator(m).run(None, {"x": x})[0]
            ok = isinstance(got, np.ndarray) and np.array_equal(got, x)
            print(f"opset {opset}: reference evaluator gives {type(got).__name__}", "" if ok else repr(got)[:80])
        except Exception as e:  # noqa: BLE001 - the failure is the finding
            ok = False
            print(f"opset {opset}: reference evaluator fails: {type(e).__name__}: {e}")
        bad |= not ok
    if bad:
        print("BUG: OptionalGetElement(Optional(x)) hands on the evaluator's list wrapper, not x; the next node fails")
        raise SystemExit(1)
    print("ok: the evaluator returns x, as onnxruntime does")
