"""onnxslim's slim() raises RecursionError on a valid If whose branch initializer is named like a later main-graph value.

IR.md §Graphs, Names Within a Graph: a subgraph's names must differ from the outer names *visible* in it; a name the
main graph introduces after the If (here the graph output `t`, written by the Mul that reads the If's result) is not
visible in its branches. `r = If(c){ a = Add(x, t), t a float [1] initializer of the branch }{ b = Sub(x, q) }`,
then `t = Mul(r, k)`, opset 18, IR 8, is valid: the plain checker accepts it and onnxruntime runs it.

onnxslim 0.1.98 vendors onnx-graphsurgeon's importer (`third_party/onnx_graphsurgeon/importers/onnx_importer.py`,
`import_graph`): a subgraph's initializers are looked up with `check_outer_graph=True` in the tensors the outer graph
declared before its nodes (its outputs and value_info included), so the branch's Add reads the main graph's `t`, the
branch's own initializer is lost, and the graph gains a cycle (If -> Mul -> t -> If): its toposort
(`get_hierarchy_level`) recurses until Python's limit. Not row 93 (no model-local function here, another loop).
The same model with the initializer named `p` slims to a valid, right model. Found by the
`scope-names/if-constant-condition` base (round 23c), form `initializer-as-later-output`.
Exits 1 while slim() fails or gives a wrong model, 0 once it is right.
"""

import sys

import numpy as np
import onnx
import onnx.parser
import onnxruntime as ort
import onnxslim

TEXT = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N,3] x) => (float[N,3] t) <float[1] k = {{2.0}}, bool c = {{1}}> {{
  r = If(c) <then_branch = g1 () => (float[N,3] a) <float[1] {p} = {{1.0}}> {{ a = Add(x, {p}) }},
             else_branch = g2 () => (float[N,3] b) <float[1] q = {{3.0}}> {{ b = Sub(x, q) }}>
  t = Mul(r, k)
}}"""
FEEDS = {"x": np.array([[1.0, 2.0, 3.0], [-4.0, 0.5, 0.0]], np.float32)}


def run(model):
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, FEEDS)[0]


def slimmed(name):
    """None when slim() gives a valid model computing (x + 1) * 2, else what went wrong."""
    model = onnx.parser.parse_model(TEXT.format(p=name))
    onnx.checker.check_model(model)
    assert np.allclose(run(model), (FEEDS["x"] + 1) * 2)  # the input runs and is right
    try:
        out = onnxslim.slim(model)
        onnx.checker.check_model(out)
        got = run(out)
    except Exception as e:  # noqa: BLE001 - the failure is what is reported
        return f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
    return None if np.allclose(got, (FEEDS["x"] + 1) * 2) else f"computes {got.ravel()[:3].tolist()}"


fresh, reused = slimmed("p"), slimmed("t")
print("branch initializer named 'p':", fresh or "slimmed, valid and right")
print("branch initializer named 't':", reused or "slimmed, valid and right")
sys.exit(1 if reused and fresh is None else 0)
