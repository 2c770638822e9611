"""onnx-graphsurgeon's `Graph.fold_constants()` (default `flatten_subgraphs=True`) inlines the taken branch of an If
whose condition is a constant, renaming the branch's values with a `_subg_0_<branch>` suffix; an outer initializer
the branch reads is renamed too, and the rename is written into the *caller's* ModelProto: the exporter hands out
the TensorProto `gs.import_onnx` was given (`export_tensor_proto`: "use the original onnx.TensorProto directly") and
sets its name. After the call, the model the user still holds has initializer `k_subg_0_g1` while its If branch
reads `k`: the checker and onnxruntime refuse the user's own model. The folded model itself is right.

The rename is not the fold's alone: any initializer renamed through gs's API (`graph.tensors()["k"].name = "k2"`,
then `gs.export_onnx`) is renamed in the caller's ModelProto too, its nodes still reading `k` (checked second).

Model (opset 13): x: float[N, 4]; initializers t = true, k = 0.5; y = If(t, then: Mul(Relu(x), k), else: Neg(x)).
Exits 1 while the given ModelProto differs after either call, 0 when fixed (gs works on its own copy)."""

import onnx
import onnx_graphsurgeon as gs
from onnx import parser

MODEL = """<ir_version: 7, opset_import: ["" : 13]>
g (float[N, 4] x) => (float[N, 4] y) <bool t = {1}, float k = {0.5}> {
   y = If (t) <then_branch: graph = g1 () => (float[N, 4] a) {
      r = Relu (x)
      a = Mul (r, k)
   }, else_branch: graph = g2 () => (float[N, 4] b) {
      b = Neg (x)
   }>
}"""
PLAIN = """<ir_version: 7, opset_import: ["" : 13]>
g (float[N, 4] x) => (float[N, 4] y) <float k = {0.5}> {
   y = Mul (x, k)
}"""

if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnx_graphsurgeon", gs.__version__)
    m = parser.parse_model(MODEL)
    onnx.checker.check_model(m, full_check=True)
    given = m.SerializeToString(deterministic=True)
    out = gs.export_onnx(gs.import_onnx(m).toposort().fold_constants().cleanup())
    onnx.checker.check_model(out, full_check=True)
    print("folded:", [n.op_type for n in out.graph.node], [t.name for t in out.graph.initializer])
    print("the caller's initializers after the call:", [t.name for t in m.graph.initializer])
    try:
        onnx.checker.check_model(m, full_check=True)
        print("the caller's model still passes the checker")
    except Exception as exc:  # noqa: BLE001 - the corrupted model is the finding
        print(f"the caller's model is now refused: {str(exc).splitlines()[0][:140]}")
    folded_mutated = m.SerializeToString(deterministic=True) != given

    m2 = parser.parse_model(PLAIN)
    given2 = m2.SerializeToString(deterministic=True)
    graph = gs.import_onnx(m2)
    graph.tensors()["k"].name = "k2"
    gs.export_onnx(graph)
    print("after a plain rename through gs, the caller's initializers:", [t.name for t in m2.graph.initializer])
    renamed_mutated = m2.SerializeToString(deterministic=True) != given2
    raise SystemExit(1 if folded_mutated or renamed_mutated else 0)
