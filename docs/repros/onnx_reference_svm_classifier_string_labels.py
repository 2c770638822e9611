"""onnx's reference evaluator (`onnx/reference/ops/aionnxml/op_svm_classifier.py`): an SVMClassifier with string class
labels and one `rho` (a two-class model) fails: `_compute_final_scores` hands `classlabels_ints` (None when the labels
are strings) to `set_score_svm`, which takes its `len()` — "TypeError: object of type 'NoneType' has no len()",
reported as "Issues with types ... (operator 'SVMClassifier')".

ai.onnx.ml SVMClassifier-1 (Operators-ml.md): `classlabels_strings` "Class labels if using string labels", one and
only one of the `classlabels_*` attributes defined; output `Y` is tensor(string) then. The same model with
`classlabels_ints = [0, 1]` runs in the evaluator; with `["a", "b"]` its labels should be those, indexed alike (as
onnxruntime computes). LINEAR kernel, two support vectors, `x: float[3, 2]`. Exits 1 while the string-label model
fails or disagrees with the integer-label one, 0 when fixed."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator


def model(strings: bool) -> onnx.ModelProto:
    labels = {"classlabels_strings": ["a", "b"]} if strings else {"classlabels_ints": [0, 1]}
    node = helper.make_node(
        "SVMClassifier",
        ["X"],
        ["Y", "Z"],
        domain="ai.onnx.ml",
        kernel_type="LINEAR",
        kernel_params=[0.1, 0.0, 1.0],
        support_vectors=[0.0, 1.0, 1.0, 0.0],
        vectors_per_class=[1, 1],
        coefficients=[1.0, -1.0],
        rho=[0.5],
        **labels,
    )
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("X", TensorProto.FLOAT, [3, 2])],
        [
            helper.make_tensor_value_info("Y", TensorProto.STRING if strings else TensorProto.INT64, [3]),
            helper.make_tensor_value_info("Z", TensorProto.FLOAT, [3, 2]),
        ],
    )
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 1)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=8)


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
    x = np.array([[0.1, 0.9], [0.8, 0.2], [-1.0, 0.5]], np.float32)
    ints = model(False)
    onnx.checker.check_model(ints, full_check=True)
    y_int, z_int = ReferenceEvaluator(ints).run(None, {"X": x})
    want = [["a", "b"][int(i)] for i in y_int]
    strings = model(True)
    onnx.checker.check_model(strings, full_check=True)
    session = ort.InferenceSession(strings.SerializeToString(), providers=["CPUExecutionProvider"])
    print("integer labels (evaluator):", list(map(int, y_int)), "onnxruntime, string labels:", list(session.run(None, {"X": x})[0]))
    try:
        y_str, z_str = ReferenceEvaluator(strings).run(None, {"X": x})
        ok = list(y_str) == want and np.allclose(z_str, z_int)
        print("string labels (evaluator):", list(y_str), "expected", want)
    except Exception as e:  # noqa: BLE001 - the failure is the finding
        ok = False
        cause = e.__cause__ or e
        print(f"string labels (evaluator) fail: {type(cause).__name__}: {cause}")
    if not ok:
        print("BUG: the reference evaluator cannot run a two-class SVMClassifier with classlabels_strings")
        raise SystemExit(1)
    print("ok: string labels indexed as the integer ones")
