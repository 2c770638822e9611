"""onnxscript 0.7.2 optimize_for_ort (PartialRotaryEmbeddingFusion, rewriter/ort_fusions/rotary_embedding.py) refuses
to fold a partial rotary embedding when the com.microsoft RotaryEmbedding writes `rotary_embedding_dim = 0`, the
default its schema text states ("Default value is 0"; onnxruntime reads 0 as the whole head size and computes the
same as with the attribute left out). The rule's check fails on the attribute being present, not on its value: the
same node without the attribute is folded into one RotaryEmbedding (rotary_embedding_dim 8). Both inputs run in
onnxruntime and agree. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx_ir as ir
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxscript.rewriter.ort_fusions import optimize_for_ort


def model(attrs):
    ints = {"zero": [0], "rot": [8], "big": [2**63 - 1], "ax3": [3], "one": [1]}
    inits = [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in ints.items()]
    angle = np.arange(16 * 4, dtype=np.float32).reshape(16, 4) / 10  # (max position, rotary dim / 2)
    inits += [numpy_helper.from_array(np.cos(angle), "cos"), numpy_helper.from_array(np.sin(angle), "sin")]
    n = helper.make_node
    nodes = [
        n("Slice", ["x", "zero", "rot", "ax3", "one"], ["xa"]),  # the rotary part: x[..., :8]
        n("Slice", ["x", "rot", "big", "ax3", "one"], ["xb"]),  # the rest: x[..., 8:]
        n("RotaryEmbedding", ["xa", "pos", "cos", "sin"], ["ra"], domain="com.microsoft", **attrs),
        n("Concat", ["ra", "xb"], ["y"], axis=-1),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 2, 4, 16]),
            helper.make_tensor_value_info("pos", TensorProto.INT64, ["N", 4]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 2, 4, 16])],
        inits,
    )
    opsets = [helper.make_opsetid("", 18), helper.make_opsetid("com.microsoft", 1)]
    return helper.make_model(graph, opset_imports=opsets, ir_version=10)


rng = np.random.default_rng(0)
feeds = {"x": rng.standard_normal((2, 2, 4, 16)).astype(np.float32), "pos": np.array([[0, 1, 2, 3], [2, 3, 4, 5]])}


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]


ops = {}
for name, attrs in (("omitted", {"num_heads": 2}), ("explicit", {"num_heads": 2, "rotary_embedding_dim": 0})):
    m = model(attrs)
    want = run(m)
    out = ir.from_proto(m)
    optimize_for_ort(out)
    fused = ir.to_proto(out)
    np.testing.assert_allclose(run(fused), want, rtol=1e-5, atol=1e-5)
    ops[name] = [node.op_type for node in fused.graph.node]
    print(f"rotary_embedding_dim {name}: {ops[name]}")
np.testing.assert_array_equal(run(model({"num_heads": 2})), run(model({"num_heads": 2, "rotary_embedding_dim": 0})))
if ops["omitted"] != ops["explicit"]:
    print("BUG: the explicit default (rotary_embedding_dim = 0) is not folded; the omitted one is")
    sys.exit(1)
print("ok")
