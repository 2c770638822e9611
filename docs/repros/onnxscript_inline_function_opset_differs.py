"""onnx_ir's function inliner (``onnx_ir.passes.common.InlinePass``, which ``onnxscript.optimizer.optimize`` and
``optimize_for_ort`` run first) refuses a model-local function whose default-domain import names another version
than the model's, even when every op of the body selects the same schema at both versions.

onnx.proto ``FunctionProto.opset_import``: a function's body binds against the sets *the function* imports; a set the
model also imports may be imported at a different version as long as the schema each op selects is the same (the onnx
checker tests exactly this). Here the model imports ai.onnx 18 and the function ai.onnx 14; its body is
``Sigmoid`` (13) and ``Add`` (14), the same schemas at 18. The model passes the full checker and onnxruntime runs it.
The inliner raises "Opset mismatch when inlining function ...", so ``optimize`` fails on a valid model.
Expected: the call inlined (the body's nodes bound at the model's 18 are the same ops), the output unchanged.
Exits 1 while the defect is present.
"""

import numpy as np
import onnx
import onnx.parser
import onnxruntime as ort

SRC = """<ir_version: 8, opset_import: ["" : 18, "local" : 1]>
g (float[2, 3] x) => (float[2, 3] y) { t = local.F(x) y = Relu(t) }
<domain: "local", opset_import: ["" : 14]>
F (a) => (b) { c = Sigmoid(a) b = Add(c, a) }"""
m = onnx.parser.parse_model(SRC)
onnx.checker.check_model(m, full_check=True)
x = np.linspace(-2, 2, 6, dtype=np.float32).reshape(2, 3)


def run(model):
    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


want = run(m)
bad = 0
tools = []
try:
    import onnx_ir
    import onnx_ir.passes.common

    def ir_inline(model):
        ir_model = onnx_ir.serde.deserialize_model(model)
        onnx_ir.passes.common.InlinePass()(ir_model)
        return onnx_ir.serde.serialize_model(ir_model)

    tools.append(("onnx_ir InlinePass", ir_inline))
except ImportError:
    pass
try:
    import onnxscript.optimizer

    tools.append(("onnxscript.optimizer.optimize", onnxscript.optimizer.optimize))
except ImportError:
    pass
for name, tool in tools:
    try:
        out = tool(onnx.ModelProto.FromString(m.SerializeToString()))
        got = run(out)
        same = np.allclose(got, want, rtol=1e-6, atol=1e-6)
        print(f"{name}: ran, functions left {len(out.functions)}, output {'same' if same else 'DIFFERENT'}")
        bad |= not same
    except Exception as e:  # noqa: BLE001 - the refusal is the defect
        print(f"{name}: refused a valid model: {type(e).__name__}: {str(e)[:200]}")
        bad = 1
if not tools:
    raise SystemExit("neither onnx_ir nor onnxscript is installed")
raise SystemExit(1 if bad else 0)
