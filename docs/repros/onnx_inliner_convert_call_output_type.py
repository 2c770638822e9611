"""onnx's inliner with version conversion (``onnx.inliner.inline_local_functions(model, convert_version=True)``) fails
an internal assertion on a valid model whose model-local function imports another ai.onnx version than the model,
when the call's output has no value_info entry.

onnx.proto ``FunctionProto.opset_import`` lets a function import ai.onnx at its own version (here 14, the model 18);
IR.md §Graphs makes value_info for intermediate values optional. Converting the body needs the types of the call's
values, and the inliner looks them up among the graph's inputs, outputs and value_info only:
"inliner.cc: GetType: Assertion `false` failed: Type unknown for t". With the value typed by
``onnx.shape_inference.infer_shapes`` first, the same call inlines. Expected: the call inlined (or a declined
conversion), never an assertion on a valid model. Exits 1 while the defect is present.
"""

import onnx
import onnx.inliner
import onnx.parser
import onnx.shape_inference

SRC = """<ir_version: 8, opset_import: ["" : 18, "local" : 1]>
g (float[2, 3] x) => (float[2, 3] y) { t = local.F(x) y = Relu(t) }
<domain: "local", opset_import: ["" : 14]>
F (a) => (b) { c = Sigmoid(a) b = Add(c, a) }"""
m = onnx.parser.parse_model(SRC)
onnx.checker.check_model(m, full_check=True)
typed = onnx.inliner.inline_local_functions(onnx.shape_inference.infer_shapes(m), convert_version=True)
print("with value_info: inlined into", [n.op_type for n in typed.graph.node])
try:
    out = onnx.inliner.inline_local_functions(m, convert_version=True)
except Exception as e:  # noqa: BLE001 - the assertion is the defect
    print(f"without value_info: {type(e).__name__}: {str(e)[:200]}")
    raise SystemExit(1) from None
print("without value_info: inlined into", [n.op_type for n in out.graph.node])
raise SystemExit(0)
