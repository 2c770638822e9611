"""onnxoptimizer's eliminate_if_with_const_cond inlines a branch whose initializer reuses a name the main graph defines later.

IR.md §Graphs, Names Within a Graph: a subgraph's names must differ from the outer names *visible* in it; a name the
main graph introduces after the If is not visible in its branches. `r = If(true){ a = Add(x, t), t a float [1]
initializer of the branch }{ b = Sub(x, q) }`, then `t = Mul(r, k)` (`t` the graph output), opset 18, is valid: the
plain checker accepts it and onnxruntime runs it (`t = (x + 1) * 2`). onnxoptimizer 0.4.2's default passes replace the
If by the then-branch and move its initializer `t` into the main graph under its own name, beside the Mul's output `t`:
the result is refused ("Graph must be in single static assignment (SSA) form, however 't' has been used as output
names multiple times"). The same model with the initializer named `p` is optimized correctly. Found by the
`scope-names/if-constant-condition` base (round 23c, M542), form `initializer-as-later-output`.
Exits 1 while the optimized model is invalid or computes otherwise, 0 once it is right.
"""

import sys

import numpy as np
import onnx
import onnx.parser
import onnxoptimizer
import onnxruntime as ort

TEXT = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N,3] x) => (float[N,3] t) <float[1] k = {{2.0}}, bool c = {{1}}> {{
  r = If(c) <then_branch = g1 () => (float[N,3] a) <float[1] {p} = {{1.0}}> {{ a = Add(x, {p}) }},
             else_branch = g2 () => (float[N,3] b) <float[1] q = {{3.0}}> {{ b = Sub(x, q) }}>
  t = Mul(r, k)
}}"""
FEEDS = {"x": np.array([[1.0, 2.0, 3.0], [-4.0, 0.5, 0.0]], np.float32)}


def verdict(model):
    """None when the optimized model is valid and computes (x + 1) * 2, else what is wrong."""
    try:
        onnx.checker.check_model(model)
        got = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, FEEDS)[0]
    except Exception as e:  # noqa: BLE001 - the refusal is what is reported
        return str(e).replace("\n", " ")[:160]
    return None if np.allclose(got, (FEEDS["x"] + 1) * 2) else f"computes {got.ravel()[:3].tolist()}"


bad = False
for name in ("p", "t"):
    model = onnx.parser.parse_model(TEXT.format(p=name))
    onnx.checker.check_model(model)
    assert verdict(model) is None  # the input is valid and right
    wrong = verdict(onnxoptimizer.optimize(model))
    print(f"branch initializer named {name!r}: optimized model", wrong or "valid and right")
    bad |= wrong is not None and name == "t"
sys.exit(1 if bad else 0)
