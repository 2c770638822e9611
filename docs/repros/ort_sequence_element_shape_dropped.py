"""onnxruntime's graph inference drops the element shape of a sequence value (docs/found.md row 1186).

``Y = Relu(SequenceAt(SequenceConstruct(X), 0))``, ``X: float[3, 1, 4]``, ``Y`` declared ``float[?, ?, ?]``, and an
Identity after the Relu so that the optimizer rewrites the graph and writes the types it inferred
(``optimized_model_filepath``). onnx's shape inference infers ``[3, 1, 4]`` for ``Y`` (SequenceConstruct: the
element type of its inputs; SequenceAt: the sequence's element type, Operators.md); onnxruntime's saved graph says
``[?, ?, ?]``, while the same graph without the sequence says ``[3, 1, 4]``.

Exit 1 while onnxruntime's saved annotation knows fewer dims than onnx's inference, 0 once it knows them.
"""

import os
import sys
import tempfile

import numpy as np
import onnx
import onnxruntime as ort
from onnx import parser, shape_inference

HEAD = """<ir_version: 8, opset_import: ["" : 17]>
g (float[3,1,4] X) => (float[?,?,?] Y) <int64 pos = {0}> {"""
SEQ = (
    HEAD
    + """
  s = SequenceConstruct (X)
  a = SequenceAt (s, pos)
  r = Relu (a)
  Y = Identity (r)
}"""
)
PLAIN = (
    HEAD
    + """
  r = Relu (X)
  Y = Identity (r)
}"""
)


def dims(tp):
    return [d.dim_value if d.HasField("dim_value") else "?" for d in tp.tensor_type.shape.dim]


def ort_saved(model):
    path = os.path.join(tempfile.mkdtemp(), "optimized.onnx")
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    so.optimized_model_filepath = path
    sess = ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"])
    got = sess.run(None, {"X": np.ones((3, 1, 4), np.float32)})[0].shape
    out = onnx.load(path)
    assert len(out.graph.node) < len(model.graph.node), "the Identity was not removed: nothing re-written"
    return dims(out.graph.output[0].type), list(got)


def main():
    seq, plain = parser.parse_model(SEQ), parser.parse_model(PLAIN)
    onnx_y = {v.name: dims(v.type) for v in shape_inference.infer_shapes(seq, strict_mode=True).graph.value_info}["r"]
    seq_y, seq_run = ort_saved(seq)
    plain_y, _ = ort_saved(plain)
    print(f"onnxruntime {ort.__version__}, onnx {onnx.__version__}")
    print(f"onnx shape inference, sequence form: r {onnx_y}; run: Y {seq_run}")
    print(f"onnxruntime saved graph: Y {seq_y} (sequence form), {plain_y} (plain form)")
    if sum(d != "?" for d in seq_y) < sum(d != "?" for d in onnx_y):
        print("BUG: onnxruntime's graph lost the sequence's element shape that onnx's inference keeps")
        return 1
    print("OK: the element shape is carried through the sequence")
    return 0


if __name__ == "__main__":
    sys.exit(main())
