"""onnx's inliner as ``onnx:inline-*`` ids (:mod:`passcheck.passes.onnx_inliner`)."""

from __future__ import annotations

import onnx
from onnx import parser

from passcheck.api import check_model
from passcheck.passes import get_pass
from passcheck.passes.onnx_inliner import VARIANTS, OnnxInlinerAdapter
from tests.passes._helpers import cell_of

# A model-local function around a schema function op (HardSwish-14 has a function body in onnx).
MODEL = parser.parse_model("""<ir_version: 8, opset_import: ["" : 17, "local" : 1]>
g (float[N, 4] x) => (float[N, 4] y) {
  y = local.F (x)
}
<domain: "local", opset_import: ["" : 17]>
F (a) => (b) {
  h = HardSwish (a)
  b = Add (h, a)
}""")


def test_each_variant_inlines_and_is_judged_alike():
    passes = [f"onnx:{v}" for v in VARIANTS]
    report = check_model(MODEL, passes, name="inliner/local")
    cells = {c.pass_id: c for c in report.cells if c.pass_id in passes}
    for c in cells.values():
        assert c.status == "changed" and not c.findings, (c.pass_id, c.status, c.error, c.findings)
    assert "HardSwish" in cells["onnx:inline-local-functions"].ops_after
    assert "HardSwish" not in cells["onnx:inline-schema-functions"].ops_after  # expanded into its body
    assert [p for p in passes if get_pass(p).optimizes] == [
        "onnx:inline-local-functions",
        "onnx:inline-local-functions-convert",
    ]


class _DropsFunctions(OnnxInlinerAdapter):
    """A broken inliner: removes the model's functions without inlining the calls."""

    def __init__(self):
        super().__init__("inline-local-functions")
        self.id = "onnx:broken-inliner"

    def apply(self, model, workdir):
        out = onnx.ModelProto()
        out.CopyFrom(model)
        del out.functions[:]
        return out


def test_an_inliner_that_drops_the_functions_is_caught():
    """The checker skips a call into an unknown domain; onnxruntime cannot run it: the numeric oracle's
    ``wrong-result`` (the output fails to run)."""
    cell = cell_of(_DropsFunctions(), MODEL, "inliner/broken")
    assert "wrong-result" in {f.kind for f in cell.findings}, cell.findings
