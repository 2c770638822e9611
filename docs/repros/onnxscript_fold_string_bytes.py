"""onnxscript 0.7.2 optimize() (FoldConstantsPass, optimizer/_constant_folding.py, with onnx-ir 1.1.0) folds
`y = TfIdfVectorizer(s)` with `s` a string initializer to all zeros: the folder evaluates the node with onnx's
reference op on `s` as onnx-ir's StringTensor.numpy() gives it, an array of bytes (b"a"), while the node's
`pool_strings` attribute is read as str ("a"); no n-gram matches, every count is 0. Operators.md TfIdfVectorizer
(mode TF) counts the pool's n-grams in the input: onnxruntime and onnx's reference evaluator give
[[2, 0, 1], [1, 0, 1]]. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import helper, numpy_helper
from onnxscript import optimizer

node = helper.make_node(
    "TfIdfVectorizer",
    ["s"],
    ["y"],
    mode="TF",
    min_gram_length=1,
    max_gram_length=1,
    max_skip_count=0,
    ngram_counts=[0],
    ngram_indexes=[0, 1, 2],
    pool_strings=["a", "b", "c"],
)
s = np.array([["a", "bc", "", "c", "a"], ["bc", "", "c", "a", "bc"]], dtype=object)
graph = helper.make_graph(
    [node],
    "g",
    [],
    [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 3])],
    [numpy_helper.from_array(s, "s")],
)
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 9)], ir_version=4)
onnx.checker.check_model(model, full_check=True)  # the input is valid
want = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {})[0]
out = optimizer.optimize(onnx.ModelProto.FromString(model.SerializeToString()))
got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {})[0]
if not np.array_equal(want, got):
    print("BUG:", got.tolist(), "vs", want.tolist(), "(onnxruntime on the input)")
    sys.exit(1)
print("ok")
