"""onnxscript.rewriter.rewrite on Clip(Clip(x, lo, hi), lo2, hi2) with scalar initializer bounds (no passcheck)."""

import onnx
import onnxscript
import onnxscript.rewriter

m = onnx.parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[N,8] x) => (float[N,8] y)
<float lo = {-0.5}, float hi = {0.5}, float lo2 = {-0.25}, float hi2 = {0.75}>
{ a = Clip(x, lo, hi)
  y = Clip(a, lo2, hi2) }""")
onnx.checker.check_model(m, full_check=True)
try:
    out = onnxscript.rewriter.rewrite(m)
except Exception as e:
    print("onnxscript", onnxscript.__version__, "crashes:", type(e).__name__, str(e)[:200])
    raise SystemExit(1) from None
print("onnxscript", onnxscript.__version__, "ok:", [n.op_type for n in out.graph.node])
