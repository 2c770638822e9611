"""``onnxscript:convert-opset-up`` (:mod:`passcheck.passes.onnxscript_version_converter`): onnxscript's own
version converter on a library case, within the range its source states; a broken output is caught."""

from __future__ import annotations

import onnx
import pytest
from onnx import parser

from passcheck.cases import load_builtin
from passcheck.passes import get_pass
from passcheck.passes.onnxscript_version_converter import OnnxscriptVersionConverterAdapter, supported
from tests.passes._helpers import cell_of, script_apply

PAD = load_builtin().get("count/pad-static").build("common")  # opset 18: Pad has a new version at 19


def test_a_library_case_is_converted_up_and_judged():
    cell = cell_of(_Renamed(), PAD, "onnxscript-convert/pad")
    assert cell.status in ("changed", "unchanged") and cell.verdict == "ok", (cell.status, cell.error, cell.findings)
    assert not get_pass("onnxscript:convert-opset-up").optimizes


def test_a_model_outside_the_stated_range_is_unavailable():
    low, high = supported()
    old = parser.parse_model(f"""<ir_version: 8, opset_import: ["" : {low - 1}]>
g (float[2] x) => (float[2] y) {{ y = Pad (x, p) p = Constant <value = int64[2] {{1, 1}}> () }}""")
    assert "supports ai.onnx opsets" in get_pass("onnxscript:convert-opset-up").why_not(old)


class _Renamed(OnnxscriptVersionConverterAdapter):
    id = "onnxscript:test-convert-opset-up"


class _DropsFirstNode(_Renamed):
    """A broken converter: its output reads the first node's input where the node's output was read."""

    id = "onnxscript:broken-convert"

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        first = out.graph.node[0]
        for n in out.graph.node[1:]:
            n.input[:] = [first.input[0] if i == first.output[0] else i for i in n.input]
        for o in out.graph.output:
            o.name = first.input[0] if o.name == first.output[0] else o.name
        del out.graph.node[0]
        return out


def test_a_converter_that_drops_a_node_is_caught():
    cell = cell_of(_DropsFirstNode(), PAD, "onnxscript-convert/broken")
    assert {"wrong-result", "invalid-model"} & {f.kind for f in cell.findings}, cell.findings


@pytest.mark.parametrize("pass_id", ["onnxscript:convert-opset-up", "onnxscript:convert-opset-up-ir"])
def test_a_reproducer_converts_as_the_adapter_does(tmp_path, pass_id):
    """The ModelProto entry point and the IR one (``-ir``, which also writes the target opset import: M62)."""
    from passcheck.repro.tools import tool_call

    call = tool_call(pass_id, PAD)
    assert call is not None and call.needs == ("onnxscript",), call
    ours = script_apply(call)(onnx.ModelProto.FromString(PAD.SerializeToString()))
    theirs = get_pass(pass_id).apply(onnx.ModelProto.FromString(PAD.SerializeToString()), tmp_path)
    assert ours.SerializeToString(deterministic=True) == theirs.SerializeToString(deterministic=True)
