"""onnx-graphsurgeon's `Graph.fold_constants()` raises on a model with a foldable value of sequence type: a
`SequenceEmpty` (no inputs, so gs finds it constant) is evaluated with onnxruntime, which returns a Python list,
and the size check after evaluation (`values.nbytes` in `ir/graph.py`) fails with AttributeError. Its default
`error_ok=True` ("whether inference errors should be suppressed") does not cover it, so the whole call fails;
Operators.md SequenceEmpty-11 / SequenceInsert-11 are ordinary ops of the default domain.

Model (opset 18): a, b: float[N, 3]; s = SequenceInsert(SequenceInsert(SequenceEmpty(), a), b), s: seq(float)
output. Control: `fold_constants` on the same sequence built from `SequenceConstruct(a, b)` (nothing constant).
Exits 1 while fold_constants raises, 0 when fixed (the sequence left as it is, or folded)."""

import onnx
import onnx_graphsurgeon as gs
from onnx import parser

MODELS = {
    "SequenceConstruct (control)": """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 3] a, float[N, 3] b) => (seq(float[N, 3]) s) {
   s = SequenceConstruct (a, b)
}""",
    "SequenceEmpty + SequenceInsert": """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 3] a, float[N, 3] b) => (seq(float[N, 3]) s) {
   e = SequenceEmpty <dtype = 1> ()
   s1 = SequenceInsert (e, a)
   s = SequenceInsert (s1, b)
}""",
}

if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnx_graphsurgeon", gs.__version__)
    bad = False
    for name, text in MODELS.items():
        m = parser.parse_model(text)
        onnx.checker.check_model(m, full_check=True)
        try:
            out = gs.export_onnx(gs.import_onnx(m).toposort().fold_constants().cleanup())
            print(f"{name}: fold_constants gives {[n.op_type for n in out.graph.node]}")
        except Exception as exc:  # noqa: BLE001 - the tool's failure is the finding
            print(f"{name}: fold_constants raises {type(exc).__name__}: {exc}")
            bad = True
    raise SystemExit(1 if bad else 0)
