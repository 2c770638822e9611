"""onnxscript's collapse_slice rule (rewriter/rules/common/_collapse_slices.py) removes Slice(x, 0, INT64_MAX) on a
symbolic axis, but not the int32 spelling Slice(x, 0, INT32_MAX) (Slice-13 Tind allows int32; ends past the dim
mean the end): it compares ends with INT64_MAX only. Same outputs: a missed optimization (also under optimize)."""

import onnx
import onnx.parser
import onnxscript
from onnxscript import rewriter

TEXT = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N, 4] x) => (float[N, 4] y) {{
  st = Constant<value = {t}[1] {{0}}>()
  en = Constant<value = {t}[1] {{{end}}}>()
  ax = Constant<value = {t}[1] {{0}}>()
  sp = Constant<value = {t}[1] {{1}}>()
  s = Slice(x, st, en, ax, sp)
  y = Relu(s)
}}"""
import sys

print("onnxscript", onnxscript.__version__)
slices = {}
for t, end in (("int64", 2**63 - 1), ("int32", 2**31 - 1)):
    m = onnx.parser.parse_model(TEXT.format(t=t, end=end))
    onnx.checker.check_model(m, full_check=True)
    out = rewriter.rewrite(m)
    slices[t] = sum(n.op_type == "Slice" for n in out.graph.node)
    print(t, [n.op_type for n in out.graph.node])
sys.exit(1 if slices["int32"] > slices["int64"] else 0)
