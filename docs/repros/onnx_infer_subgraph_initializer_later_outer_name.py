"""onnx's strict shape inference refuses a branch initializer named like a value the outer graph declares later.

IR.md §Graphs, Names Within a Graph: a subgraph's node outputs, inputs and initializers must differ from the outer
names *visible* in it (no shadowing); the main graph is topologically ordered, so a name the main graph introduces
after the If is not visible in the If's branches. `r = If(c){ a = Add(x, t) with t an initializer [1] }{ ... }`
followed by `t = Mul(r, k)`, `t` a graph output `float[N, 3]`, is therefore valid: the plain checker (lexical scopes)
accepts it, onnxruntime and the reference evaluator run it and agree. onnx 1.16.2 ... 1.23.2's strict inference
(`check_model(full_check=True)`, `infer_shapes(strict_mode=True)`) refuses it: the declared type of the outer `t`
(the graph output, or a value_info) reaches the branch, whose initializer `t: float[1]` then "differs in rank".
The same model with the initializer renamed, or with a branch *node output* named `t`, is accepted. Found by the
`scope-names/*` family (round 23c, M541), form `initializer-as-later-output` (If and Loop alike).
Exits 1 while strict inference refuses the valid model, 0 once it accepts it.
"""

import sys

import numpy as np
import onnx
import onnx.parser
import onnxruntime as ort
from onnx.reference import ReferenceEvaluator

TEXT = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N,3] x) => (float[N,3] t) <float[1] k = {{2.0}}, float zero = {{0.0}}> {{
  s = ReduceSum <keepdims = 0> (x)
  c = Greater(s, zero)
  r = If(c) <then_branch = g1 () => (float[N,3] a) <float[1] {p} = {{1.0}}> {{ a = Add(x, {p}) }},
             else_branch = g2 () => (float[N,3] b) <float[1] q = {{3.0}}> {{ b = Sub(x, q) }}>
  t = Mul(r, k)
}}"""


def strict(model):
    try:
        onnx.checker.check_model(model, full_check=True)
    except Exception as e:  # noqa: BLE001 - the refusal is what is reported
        return str(e).replace("\n", " ")[:140]
    return None


reused, fresh = onnx.parser.parse_model(TEXT.format(p="t")), onnx.parser.parse_model(TEXT.format(p="p"))
onnx.checker.check_model(reused)  # the plain checker: every name the branch defines differs from those it sees
feeds = {"x": np.array([[1.0, 2.0, 3.0], [-4.0, 0.5, 0.0]], np.float32)}
got = ort.InferenceSession(reused.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
ref = ReferenceEvaluator(reused).run(None, feeds)[0]
assert np.allclose(got, ref) and np.allclose(got, (feeds["x"] + 1) * 2), (got, ref)
print("onnxruntime and the reference evaluator run it:", got.ravel()[:3].tolist())
print("fresh initializer name, strict check:", strict(fresh) or "accepted")
refusal = strict(reused)
print("initializer named like the later output t, strict check:", refusal or "accepted")
sys.exit(1 if refusal and strict(fresh) is None else 0)
