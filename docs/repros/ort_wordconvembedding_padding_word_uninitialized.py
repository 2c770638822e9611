"""onnxruntime's CPU kernel of the com.microsoft WordConvEmbedding leaves the output row of a word whose first char
id is 0 unwritten: the kernel takes a word's length as its chars before the first 0 and skips a word of length 0
(``contrib_ops/cpu/word_conv_embedding.cc``, ``if (words_len_ptr[word_inx] > 0)``), so that row of ``Y`` holds
whatever the output buffer held before: one session run on the same feeds gives a different row after another run
(the arena hands back the previous run's buffer), and a fresh session gives zeros, denormals (3e-41) or old data. A
padded batch (words padded with an all-0 word) is the ordinary input the 0 padding exists for; the schema
(``Sequence``: "Specify batchs of sequence words to embedding", int32) states no restriction on the ids. Exits 1
while the padded sequence's output depends on what ran before it; 0 once the row is written deterministically."""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto as T
from onnx import helper as h

node = h.make_node(
    "WordConvEmbedding",
    ["Sequence", "W", "B", "C"],
    ["Y"],
    domain="com.microsoft",
    embedding_size=3,
    conv_window_size=2,
    char_embedding_size=4,
)
inputs = [h.make_tensor_value_info("Sequence", T.INT32, [2, 3])] + [
    h.make_tensor_value_info(n, T.FLOAT, s) for n, s in (("W", [3, 1, 2, 4]), ("B", [3]), ("C", [5, 4]))
]
g = h.make_graph([node], "g", inputs, [h.make_tensor_value_info("Y", T.FLOAT, [None, None])])
m = h.make_model(g, opset_imports=[h.make_opsetid("", 17), h.make_opsetid("com.microsoft", 1)], ir_version=8)
onnx.checker.check_model(m, full_check=True)

print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
rng = np.random.default_rng(0)
weights = {
    "W": rng.standard_normal((3, 1, 2, 4)).astype(np.float32),
    "B": rng.standard_normal(3).astype(np.float32),
    "C": rng.standard_normal((5, 4)).astype(np.float32),
}
padded = np.array([[0, 1, 2], [3, 4, 0]], np.int32)  # word 0 is all padding (its first char id is 0)
plain = np.array([[1, 2, 3], [4, 1, 0]], np.int32)
s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
first = s.run(None, {"Sequence": padded, **weights})[0]
s.run(None, {"Sequence": plain, **weights})
again = s.run(None, {"Sequence": padded, **weights})[0]
print("padded, first run: row 0 =", first[0].tolist(), " row 1 =", first[1].tolist())
print("padded, after a run on another sequence: row 0 =", again[0].tolist(), " row 1 =", again[1].tolist())
same = np.array_equal(first, again, equal_nan=True)
print("the same feeds give the same output:", same)
sys.exit(0 if same else 1)
