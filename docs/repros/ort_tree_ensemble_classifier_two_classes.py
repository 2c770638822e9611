"""onnxruntime's TreeEnsembleClassifier (`providers/cpu/ml/tree_ensemble_aggregator.h`, the two-class branch of
`TreeAggregatorClassifier::FinalizeScores`): with two classes whose leaves both carry weights (`class_ids` holds 0 and
1, so not its one-class "binary case"), a row whose leaves vote for class 0 only gets label 1 and scores `[-s, s]`.
The kernel drops class 1's empty score and then reads class 0's score as the positive class's ("pos_weight").

ai.onnx.ml TreeEnsembleClassifier-1/3 (Operators-ml.md): `class_ids` is "the index of the class list that each weight
is for", `Z` "the class score for each class, for each point", `Y` the "top class for each point". One tree, a split
`x[0] <= 0.5`; the true leaf votes class 0 (weight 1), the false leaf class 1 (weight 1); `post_transform` NONE, no
base values. A row with `x[0] <= 0.5` has scores `[1, 0]` and label 0 (onnx's reference evaluator gives exactly that).
String labels (`classlabels_strings`) go through the same index. Exits 1 while a class-0 row is labelled 1 or scored
otherwise than `[1, 0]`, 0 when fixed."""

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper


def model(strings: bool) -> onnx.ModelProto:
    labels = {"classlabels_strings": ["no", "yes"]} if strings else {"classlabels_int64s": [0, 1]}
    node = helper.make_node(
        "TreeEnsembleClassifier",
        ["X"],
        ["Y", "Z"],
        domain="ai.onnx.ml",
        nodes_treeids=[0, 0, 0],
        nodes_nodeids=[0, 1, 2],
        nodes_featureids=[0, 0, 0],
        nodes_modes=["BRANCH_LEQ", "LEAF", "LEAF"],
        nodes_values=[0.5, 0.0, 0.0],
        nodes_truenodeids=[1, 0, 0],
        nodes_falsenodeids=[2, 0, 0],
        class_treeids=[0, 0],
        class_nodeids=[1, 2],
        class_ids=[0, 1],
        class_weights=[1.0, 1.0],
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
    opsets = [helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 3)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=8)


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
    x = np.array([[0.1, 0.0], [0.9, 0.0], [-0.5, 0.0]], np.float32)  # rows 0 and 2 reach the class-0 leaf
    bad = False
    for strings in (False, True):
        m = model(strings)
        onnx.checker.check_model(m, full_check=True)
        y, z = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"X": x})
        want_y = ["no", "yes", "no"] if strings else [0, 1, 0]
        want_z = np.array([[1, 0], [0, 1], [1, 0]], np.float32)
        ok = list(y) == want_y and np.array_equal(z, want_z)
        print("labels", "strings" if strings else "int64", "Y", list(y), "Z", z.tolist(), "expected", want_y, want_z.tolist())
        bad |= not ok
    if bad:
        print("BUG: a row whose leaf votes class 0 only is labelled class 1 with scores [-1, 1]")
        raise SystemExit(1)
    print("ok: the class-0 rows are labelled 0 with scores [1, 0]")
