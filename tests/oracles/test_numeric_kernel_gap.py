"""A pass output that moved to an older opset onnxruntime has no kernel for is unchecked, not a
wrong result (the generated set under ``onnx:convert-opset-down``: ``abs-6`` converted to opset 5
writes Abs-1, ``averagepool-7`` to opset 6 writes AveragePool-1; onnxruntime's CPU kernels start at
Abs-6 and AveragePool-7, and the spec does not require a runtime to ship every version's kernel).
Real version converter and onnxruntime sessions."""

from __future__ import annotations

import onnx
from onnx import helper, parser

from passcheck.api import check_model
from passcheck.testing import check_model_passes

ABS6 = """<ir_version: 7, opset_import: ["" : 6]>
g (float[2, 3] x) => (float[2, 3] y) { y = Abs (x) }"""
ABS_INT16 = """<ir_version: 8, opset_import: ["" : 14]>
g (int16[2, 3] x) => (int16[2, 3] y) { y = Abs (x) }"""


def test_an_output_at_an_opset_without_a_kernel_here_is_unchecked_with_the_kernel_named():
    report = check_model(parser.parse_model(ABS6), ["onnx:convert-opset-down"], name="numeric/kernel-gap")
    (cell,) = [c for c in report.cells if c.pass_id == "onnx:convert-opset-down"]
    assert cell.status in ("changed", "unchanged") and cell.error is None, cell  # the graph is kept, restamped
    assert not cell.findings, [f.message for f in cell.findings]
    assert cell.verdict == "unchecked"
    (why,) = cell.unchecked.values()
    assert "no kernel for Abs(1)" in why and "opset 5, from 6" in why, why
    assert report.exit_code == 1  # a verdict is a promise: nothing compared is no ok


def test_an_output_at_the_same_opset_that_fails_for_a_missing_kernel_is_still_wrong():
    """The pass kept the opset and wrote a node this runtime cannot run (Relu on int16 has no CPU
    kernel at opset 14, Abs has): its output fails where its input runs, a finding of the pass."""

    def relu_after(model: onnx.ModelProto) -> onnx.ModelProto:
        out = onnx.ModelProto()
        out.CopyFrom(model)
        out.graph.node[0].output[0] = "a"
        out.graph.node.append(helper.make_node("Relu", ["a"], ["y"]))
        return out

    found = check_model_passes(parser.parse_model(ABS_INT16), [relu_after], include_input=False, isolation=False)
    wrong = [f for f in found if (f.oracle, f.kind) == ("numeric", "wrong-result")]
    assert wrong and "fails to run" in wrong[0].message and "Relu(14)" in wrong[0].message, [f.message for f in found]
