"""onnx 1.23.2's inliner with schema functions (`inline_selected_functions(model, [], exclude=True,
inline_schema_functions=True)`) does not apply an op's schema attribute defaults when the node omits the attribute:
HannWindow-17's body reads `periodic` and `output_datatype` by reference (`Constant <value_int = @periodic>`,
`Cast <to = @output_datatype>`), and with both omitted (defaults 1 and FLOAT, Operators.md HannWindow) the inlined
nodes carry no attribute at all: `Constant ()` and a `Cast` without its required `to`. The checker rejects the
result ("Required attribute 'to' is missing") and onnxruntime refuses it. Written out, the same attributes inline
to a valid model. Where the referencing attribute is optional the result is valid and computes other values:
MeanVarianceNormalization-13 with `axes` omitted (default [0, 2, 3]) inlines to `ReduceMean` without `axes`, which
reduces every axis. Exit 1 while the bug is present."""

import sys

import numpy as np
import onnx
import onnx.inliner
import onnxruntime as ort

TEXT = """<ir_version: 8, opset_import: ["" : 17]>
g () => (float[8] y) <int64 size = {{8}}> {{
  y = HannWindow {attrs} (size)
}}"""


def inlined_error(attrs: str) -> str | None:
    """Why the schema-inlined HannWindow (attributes ``attrs``) is rejected or computes other values, or None."""
    model = onnx.parser.parse_model(TEXT.format(attrs=attrs))
    onnx.checker.check_model(model, full_check=True)
    expected = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {})[0]
    out = onnx.inliner.inline_selected_functions(model, [], exclude=True, inline_schema_functions=True)
    try:
        onnx.checker.check_model(out, full_check=True)
        got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {})[0]
    except Exception as exc:  # noqa: BLE001
        return f"{type(exc).__name__}: {str(exc).splitlines()[0][:200]}"
    return None if np.allclose(got, expected, atol=1e-6) else "values differ"


written = inlined_error("<periodic = 1, output_datatype = 1>")
omitted = inlined_error("")
print("HannWindow, attributes written:", written or "ok")
print("HannWindow, attributes omitted:", omitted or "ok")

MVN = """<ir_version: 8, opset_import: ["" : 13]>
g (float[1, 2, 3, 3] x) => (float[1, 2, 3, 3] y) {{ y = MeanVarianceNormalization {attrs} (x) }}"""
x = {"x": np.random.default_rng(0).standard_normal((1, 2, 3, 3)).astype(np.float32)}
errors = {}
for attrs in ("<axes = [0, 2, 3]>", ""):
    mvn = onnx.parser.parse_model(MVN.format(attrs=attrs))
    inlined = onnx.inliner.inline_selected_functions(mvn, [], exclude=True, inline_schema_functions=True)
    kernel, body = (ort.InferenceSession(m.SerializeToString()).run(None, x)[0] for m in (mvn, inlined))
    errors[attrs or "(axes omitted)"] = float(np.abs(kernel - body).max())
print("MeanVarianceNormalization, max abs difference kernel vs inlined body:", errors)
if (omitted and not written) or errors["(axes omitted)"] > 1e-4:
    print("BUG: the schema defaults are not applied when the attributes are omitted")
    sys.exit(1)
print("ok")
