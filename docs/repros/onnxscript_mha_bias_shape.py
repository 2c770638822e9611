"""onnxscript optimize_for_ort: FuseBiasMHA folds a broadcasting query bias into MultiHeadAttention's packed bias.

y = self-attention whose query projection adds a bias bq of shape [1, 16] or [1] (both broadcast
to [N, 4, 16] under Add; Operators.md Add-14, Broadcasting.md). MultiHeadAttention's `bias` input is
1-D [3 * hidden] (onnxruntime ContribOperators.md); the rule mha_bias.py concatenates q/k/v biases
along axis 0 without checking their shapes. Exits 1 while the bug is present.
"""

import sys

import numpy as np
import onnx
import onnx_ir as ir
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper
from onnxscript.rewriter.ort_fusions import optimize_for_ort

rng = np.random.default_rng(0)


def model(bq_shape):
    init = [
        numpy_helper.from_array(rng.standard_normal((16, 16)).astype(np.float32) * 0.3, "wq"),
        numpy_helper.from_array(rng.standard_normal(bq_shape).astype(np.float32) * 0.1, "bq"),
        numpy_helper.from_array(np.array([0, 0, 2, 8], np.int64), "s4"),
        numpy_helper.from_array(np.array(2.828427, np.float32), "scale"),
        numpy_helper.from_array(np.array([0, 0, 16], np.int64), "s3"),
    ]
    n = helper.make_node
    nodes = [
        n("MatMul", ["x", "wq"], ["qm"]),
        n("Add", ["qm", "bq"], ["qa"]),
        n("Reshape", ["qa", "s4"], ["qr"]),
        n("Transpose", ["qr"], ["qt"], perm=[0, 2, 1, 3]),
        n("Reshape", ["ka", "s4"], ["kr"]),
        n("Transpose", ["kr"], ["kt"], perm=[0, 2, 3, 1]),
        n("Reshape", ["va", "s4"], ["vr"]),
        n("Transpose", ["vr"], ["vt"], perm=[0, 2, 1, 3]),
        n("MatMul", ["qt", "kt"], ["s"]),
        n("Div", ["s", "scale"], ["d"]),
        n("Add", ["d", "mask"], ["a"]),
        n("Softmax", ["a"], ["w"], axis=-1),
        n("MatMul", ["w", "vt"], ["c"]),
        n("Transpose", ["c"], ["ct"], perm=[0, 2, 1, 3]),
        n("Reshape", ["ct", "s3"], ["y"]),
    ]
    t = lambda name, shape: helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)  # noqa: E731
    g = helper.make_graph(
        nodes,
        "g",
        [t("x", ["N", 4, 16]), t("ka", ["N", 4, 16]), t("va", ["N", 4, 16]), t("mask", [1, 1, 4, 4])],
        [t("y", ["N", 4, 16])],
        init,
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


feeds = {
    k: rng.standard_normal(s).astype(np.float32)
    for k, s in {"x": (2, 4, 16), "ka": (2, 4, 16), "va": (2, 4, 16), "mask": (1, 1, 4, 4)}.items()
}


def run(m):
    s = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return s.run(None, feeds)[0]


bad = False
for shape in [(16,), (1, 16), (1,)]:
    m = model(shape)
    onnx.checker.check_model(m, full_check=True)
    ref = run(m)
    im = ir.from_proto(m)
    res = optimize_for_ort(im)
    out = ir.to_proto(res[0] if isinstance(res, tuple) else im)
    ops = [f"{nd.domain}:{nd.op_type}" if nd.domain else nd.op_type for nd in out.graph.node]
    try:
        onnx.checker.check_model(out, full_check=True)
        got = run(out)
        err = float(np.abs(got - ref).max())
        verdict = "ok" if err < 1e-4 else f"WRONG (max abs err {err:.3g})"
    except Exception as e:  # the finding: an invalid or unrunnable output
        verdict = f"FAILS: {type(e).__name__}: {str(e).splitlines()[0][:160]}"
    print(f"bq {list(shape)}: ops after {ops}\n    -> {verdict}")
    bad |= verdict != "ok"
sys.exit(1 if bad else 0)
