"""onnx-graphsurgeon's `Graph.fold_constants()` (with its default `fold_shapes=True`) first runs "shape tensor cast
elision" (`run_cast_elision` in `ir/graph.py`): for `Cast(a: int → float) → OP → Cast(→ the same int type)`, OP one
of Add, Sub, Mul, Div, Max, Min, Equal, Greater, Less, Concat, it removes both Casts and lets OP compute in the
integer type. It checks only that the Casts round trip, not that OP computes the same there:

1. a float constant operand is converted with `astype(int)`: `Mul(Cast(a), 1.5)` becomes `Mul(a, 1)`, so torch's
   `int(size * 1.5)` becomes `size` (wrong result; Cast-13: float → int truncates the *product*, not the factor);
2. Equal / Greater / Less output bool, the Cast after them made it int64: the elided node is left writing the Cast's
   int64-typed output, which the checker and onnxruntime refuse;
3. an operand that is float but not one of the Casts (here a float graph input) is left float beside the now-int
   operand: Add(int64, float), refused.

The inputs' integer type must be known to gs (a graph input, or a value_info as shape inference writes).
Controls: the same models with `fold_shapes=False` (no elision). Exits 1 while an elided model's output differs from
the given model's or does not run, 0 when fixed."""

import numpy as np
import onnx
import onnx_graphsurgeon as gs
import onnxruntime as ort
from onnx import parser

MODELS = {
    "Mul by a float constant": """<ir_version: 8, opset_import: ["" : 17]>
g (int64[3] a, int64[3] b) => (int64[3] y) {
  f = Cast <to = 1> (a)
  k = Constant <value = float {1.5}> ()
  m = Mul (f, k)
  y = Cast <to = 7> (m)
}""",
    "Less, its bool output cast to int64": """<ir_version: 8, opset_import: ["" : 17]>
g (int64[3] a, int64[3] b) => (int64[3] y) {
  f = Cast <to = 1> (a)
  h = Cast <to = 1> (b)
  m = Less (f, h)
  y = Cast <to = 7> (m)
}""",
    "Add of a float input": """<ir_version: 8, opset_import: ["" : 17]>
g (int64[3] a, float[3] b) => (int64[3] y) {
  f = Cast <to = 1> (a)
  m = Add (f, b)
  y = Cast <to = 7> (m)
}""",
}


def run(m, feeds):
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnx_graphsurgeon", gs.__version__)
    bad = False
    for name, text in MODELS.items():
        m = parser.parse_model(text)
        onnx.checker.check_model(m, full_check=True)
        float_b = m.graph.input[1].type.tensor_type.elem_type == onnx.TensorProto.FLOAT
        b = np.array([3.5, 5.5, 7.5], np.float32) if float_b else np.array([3, 5, 7], np.int64)
        feeds = {"a": np.array([2, 5, 8], np.int64), "b": b}
        want = run(m, feeds)
        for fold_shapes in (True, False):
            out = gs.export_onnx(gs.import_onnx(m).toposort().fold_constants(fold_shapes=fold_shapes).cleanup())
            ops = [n.op_type for n in out.graph.node]
            try:
                got = run(out, feeds)
                same, said = np.array_equal(got, want), f"y {got.tolist()} vs {want.tolist()}"
            except Exception as exc:  # noqa: BLE001 - the elided model's refusal is the finding
                same, said = False, f"does not run: {str(exc).splitlines()[0][:110]}"
            print(f"{name}, fold_shapes={fold_shapes}: ops {ops}, {said}, same={same}")
            bad |= not same
    raise SystemExit(1 if bad else 0)
