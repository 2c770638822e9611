"""onnx shape inference of Attention-23/24 states sizes it does not know as 0, or a rank it does not know as 0.

``AttentionPropagateElemTypeFromInputToOutput`` (``onnx/defs/nn/utils.cc``; before 1.20 in ``nn/defs.cc``) reads the
key/value sequence length and V's hidden size with ``dim_value()``, which is 0 for a ``dim_param`` or unknown dim, and
writes the optional output ``qk_matmul_output`` from a shape it builds only when Q's and V's shapes are known:

1. ``Y, _, _, QK = Attention(Q, K, V)``, 4-D, K and V ``[1, 2, "T", 4]``: ``QK`` inferred ``[1, 2, 3, 0]``;
2. the same with Q of unknown shape (a graph input declaring its element type only): ``QK`` inferred rank 0;
3. 3-D inputs (``q_num_heads = kv_num_heads = 2``), V ``[1, 5, "H"]``: ``Y`` inferred ``[1, 3, 0]``.

onnxruntime runs each (T = 5, H = 8) and gives ``QK`` ``(1, 2, 3, 5)`` and ``Y`` ``(1, 3, 8)``; the checker's full
check accepts the inferred models 1 and 3 (model 2's graph input has no shape, which it asks for). An inferred annotation must hold on every run whose inputs satisfy the graph
inputs' annotations (the binding-map semantics of shape annotations): a size the inputs leave open is a ``dim_param``
or no value, never 0. Exits 1 while any inferred annotation contradicts the run.
"""

import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import TensorProto, helper

F = TensorProto.FLOAT


def model(q, k, v, outputs, **attrs):
    node = helper.make_node("Attention", ["Q", "K", "V"], outputs, **attrs)
    ins = [helper.make_tensor_value_info(n, F, s) for n, s in (("Q", q), ("K", k), ("V", v))]
    outs = [helper.make_tensor_value_info(o, F, None) for o in outputs if o]
    m = helper.make_model(
        helper.make_graph([node], "g", ins, outs), opset_imports=[helper.make_opsetid("", 23)], ir_version=10
    )
    return m


CASES = {
    "4-D, symbolic kv length": (model([1, 2, 3, 4], [1, 2, "T", 4], [1, 2, "T", 4], ["Y", "", "", "QK"]), (4, 5, 5)),
    "4-D, Q of unknown shape": (model(None, [1, 2, 5, 4], [1, 2, 5, 4], ["Y", "", "", "QK"]), (4, 5, 5)),
    "3-D, symbolic V hidden size": (
        model([1, 3, 8], [1, 5, 8], [1, 5, "H"], ["Y"], q_num_heads=2, kv_num_heads=2),
        (3, 5, 5),
    ),
}
bad = 0
for name, (m, (rank, kv, _)) in CASES.items():
    inferred = onnx.shape_inference.infer_shapes(m, strict_mode=True)
    try:
        onnx.checker.check_model(inferred, full_check=True)
        checked = "the full checker accepts the inferred model"
    except onnx.checker.ValidationError as e:  # Q declared without a shape: the checker asks for one
        checked = f"the full checker: {str(e).splitlines()[0]}"
    print(f"{name}: {checked}")
    rng = np.random.default_rng(0)
    shapes = {"4": ([1, 2, 3, 4], [1, 2, kv, 4], [1, 2, kv, 4]), "3": ([1, 3, 8], [1, kv, 8], [1, kv, 8])}[str(rank)]
    feeds = {n: rng.standard_normal(s).astype(np.float32) for n, s in zip("QKV", shapes)}
    names = [o.name for o in inferred.graph.output]
    got = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(names, feeds)
    for o, a in zip(inferred.graph.output, got):
        t = o.type.tensor_type
        if not t.HasField("shape"):
            continue
        dims = [d.dim_value if d.HasField("dim_value") else None for d in t.shape.dim]
        holds = len(dims) == a.ndim and all(d is None or d == s for d, s in zip(dims, a.shape))
        bad += not holds
        print(f"{name}: {o.name} inferred {dims}, run {list(a.shape)}: {'holds' if holds else 'VIOLATED'}")
print("onnx", onnx.__version__, "onnxruntime", ort.__version__)
sys.exit(1 if bad else 0)
