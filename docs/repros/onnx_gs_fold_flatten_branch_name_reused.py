"""onnx-graphsurgeon's fold_constants(flatten_subgraphs=True) refuses a branch initializer that reuses a later name.

IR.md §Graphs, Names Within a Graph: a subgraph's names must differ from the outer names *visible* in it; a name the
main graph introduces after the If is not visible in its branches. `r = If(true){ a = Add(x, t), t a float [1]
initializer of the branch }{ b = Sub(x, q) }`, then `t = Mul(r, k)` (`t` the graph output), opset 18, is valid: the
plain checker accepts it and onnxruntime runs it. onnx-graphsurgeon 0.6.1's `Graph.fold_constants()` (its default
`flatten_subgraphs=True` inlines the branch of a constant condition) raises "Cycle detected in graph! Are there
tensors with duplicate names in the graph?" (`import_onnx` already binds the branch's `t` to the Mul's output `t`:
`import_graph` looks subgraph initializers up in the outer graph's declared tensors, round 23g);
with the initializer named `p` it folds the If away and the result is right. Found by the
`scope-names/if-constant-condition` base (round 23c, M542), form `initializer-as-later-output`.
Exits 1 while folding fails or gives a wrong model, 0 once it is right.
"""

import sys

import numpy as np
import onnx
import onnx.parser
import onnx_graphsurgeon as gs
import onnxruntime as ort

TEXT = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N,3] x) => (float[N,3] t) <float[1] k = {{2.0}}, bool c = {{1}}> {{
  r = If(c) <then_branch = g1 () => (float[N,3] a) <float[1] {p} = {{1.0}}> {{ a = Add(x, {p}) }},
             else_branch = g2 () => (float[N,3] b) <float[1] q = {{3.0}}> {{ b = Sub(x, q) }}>
  t = Mul(r, k)
}}"""
FEEDS = {"x": np.array([[1.0, 2.0, 3.0], [-4.0, 0.5, 0.0]], np.float32)}


def folded(name):
    """None when folding gives a valid model computing (x + 1) * 2, else what went wrong."""
    model = onnx.parser.parse_model(TEXT.format(p=name))
    onnx.checker.check_model(model)
    try:
        graph = gs.import_onnx(model)
        graph.fold_constants()
        out = gs.export_onnx(graph.cleanup().toposort())
        onnx.checker.check_model(out)
        got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, FEEDS)[0]
    except Exception as e:  # noqa: BLE001 - the failure is what is reported
        return f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"
    return None if np.allclose(got, (FEEDS["x"] + 1) * 2) else f"computes {got.ravel()[:3].tolist()}"


fresh, reused = folded("p"), folded("t")
print("branch initializer named 'p':", fresh or "folded, valid and right")
print("branch initializer named 't':", reused or "folded, valid and right")
sys.exit(1 if reused and fresh is None else 0)
