"""onnxscript 0.7.2 optimize_for_ort (PartialRotaryEmbeddingFusion, rewriter/ort_fusions/rotary_embedding.py) writes
the first Slice's `end` as the fused RotaryEmbedding's `rotary_embedding_dim` as it is. Slice reads a negative end
as counting from the back (Operators.md Slice: `dims[axes[i]]` added), so on a head size of 16 the ends 8 and -8
cut the same rotary half; with -8 the rule writes `rotary_embedding_dim=-8`, which onnxruntime refuses
("rotary_embedding_dim must be in range [0, 2147483647]"). With 8 the same model fuses, loads and agrees with the
input. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx_ir as ir
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxscript.rewriter.ort_fusions import optimize_for_ort


def model(rot):
    ints = {"one": [1], "zero": [0], "half": [4], "rot": [rot], "big": [2**63 - 1], "ax3": [3], "step": [1]}
    inits = [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in ints.items()]
    inits.append(numpy_helper.from_array(np.array([1, 0.1, 0.01, 0.001], np.float32).reshape(1, 4, 1), "inv_freq"))
    n = helper.make_node
    nodes = [
        n("Unsqueeze", ["position_ids", "one"], ["pu"]),
        n("Cast", ["pu"], ["pf"], to=TensorProto.FLOAT),
        n("MatMul", ["inv_freq", "pf"], ["fr"]),
        n("Transpose", ["fr"], ["ft"], perm=[0, 2, 1]),
        n("Concat", ["ft", "ft"], ["emb"], axis=-1),
        n("Cos", ["emb"], ["co"]),
        n("Sin", ["emb"], ["si"]),
        n("Unsqueeze", ["co", "one"], ["cos"]),
        n("Unsqueeze", ["si", "one"], ["sin"]),
        n("Slice", ["x", "zero", "rot", "ax3", "step"], ["xa"]),  # the rotary part: x[..., :rot]
        n("Slice", ["x", "rot", "big", "ax3", "step"], ["xb"]),  # the rest: x[..., rot:]
        n("Slice", ["xa", "zero", "half", "ax3", "step"], ["ra1"]),
        n("Slice", ["xa", "half", "big", "ax3", "step"], ["ra2"]),
        n("Neg", ["ra2"], ["ran"]),
        n("Concat", ["ran", "ra1"], ["rar"], axis=-1),
        n("Mul", ["xa", "cos"], ["rac"]),
        n("Mul", ["rar", "sin"], ["ras"]),
        n("Add", ["rac", "ras"], ["ra"]),
        n("Concat", ["ra", "xb"], ["y"], axis=-1),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 2, 4, 16]),
            helper.make_tensor_value_info("position_ids", TensorProto.INT64, ["N", 4]),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 2, 4, 16])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


rng = np.random.default_rng(0)
feeds = {"x": rng.standard_normal((2, 2, 4, 16)).astype(np.float32), "position_ids": np.tile(np.arange(4), (2, 1))}


def run(m):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]


def rotary_dims(m):
    return [
        a.i
        for node in m.graph.node
        if node.op_type == "RotaryEmbedding"
        for a in node.attribute
        if a.name == "rotary_embedding_dim"
    ]


for rot in (8, -8):
    m = model(rot)
    want = run(m)
    fused = ir.to_proto(optimize_for_ort(ir.from_proto(m))[0])
    print(f"end {rot}: rotary_embedding_dim {rotary_dims(fused)}")
    try:
        got = run(fused)
    except Exception as exc:  # noqa: BLE001
        print("BUG: the fused model does not load:", str(exc).strip().splitlines()[0][-120:])
        sys.exit(1)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)
print("ok")
