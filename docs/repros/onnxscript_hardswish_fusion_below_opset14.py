"""onnxscript's HardSwish fusions write HardSwish (Operators.md: since opset 14) into a model importing an older opset.

`Mul(HardSigmoid<alpha=1/6, beta=0.5>(x), x)` is valid from opset 6 (HardSigmoid-6, Mul-7), and
`Div(Mul(Clip(Add(x, 3), 0, 6), x), 6)` from opset 11 (Clip-11 takes its bounds as inputs). onnxscript 0.7.2's
`HardSwishFusionFromHardSigmoid` and `HardSwishFusion` (rewriter/rules/common/_fuse_hardswish.py) replace them by a
`HardSwish` node whatever the model's opset, so below opset 14 the rewritten model names an op its opset does not
have: the checker rejects it ("No Op registered for HardSwish with domain_version of 13") and onnxruntime cannot load it.
Expected: the pattern kept where the model's default-domain opset is below 14. Exits 1 while the defect is present.
"""

import numpy as np
import onnx
import onnx.helper as h
import onnxruntime as ort
import onnxscript.rewriter
from onnx import TensorProto as T
from onnxscript.rewriter.rules.common import fuse_hardswish_rules


def model(opset: int, body: str) -> onnx.ModelProto:
    c = [h.make_tensor(n, T.FLOAT, [], [v]) for n, v in (("three", 3.0), ("zero", 0.0), ("six", 6.0))]
    if body == "hardsigmoid":
        nodes = [
            h.make_node("HardSigmoid", ["x"], ["s"], alpha=1 / 6, beta=0.5),
            h.make_node("Mul", ["s", "x"], ["y"]),
        ]
    else:
        nodes = [
            h.make_node("Add", ["x", "three"], ["a"]),
            h.make_node("Clip", ["a", "zero", "six"], ["c"]),
            h.make_node("Mul", ["c", "x"], ["m"]),
            h.make_node("Div", ["m", "six"], ["y"]),
        ]
    g = h.make_graph(
        nodes,
        "g",
        [h.make_tensor_value_info("x", T.FLOAT, [2, 8])],
        [h.make_tensor_value_info("y", T.FLOAT, [2, 8])],
        initializer=c if body != "hardsigmoid" else [],
    )
    return h.make_model(g, opset_imports=[h.make_opsetid("", opset)], ir_version=7)


bad = 0
x = np.linspace(-4, 4, 16, dtype=np.float32).reshape(2, 8)
for body, opsets in (("hardsigmoid", (7, 13, 14)), ("clip", (11, 13, 14))):
    for opset in opsets:
        m = model(opset, body)
        onnx.checker.check_model(m, full_check=True)
        want = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
        out = onnxscript.rewriter.rewrite(m, pattern_rewrite_rules=fuse_hardswish_rules())
        ops = [n.op_type for n in out.graph.node]
        try:
            onnx.checker.check_model(out, full_check=True)
            got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[
                0
            ]
            verdict = "ok" if np.allclose(got, want, atol=1e-6) else "differs"
        except Exception as exc:  # noqa: BLE001
            verdict = f"{type(exc).__name__}: {str(exc).splitlines()[0][:110]}"
        print(f"{body:11} opset {opset}: {ops} -> {verdict}")
        bad += verdict != "ok"
raise SystemExit(1 if bad else 0)
