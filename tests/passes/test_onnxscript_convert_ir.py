"""``onnxscript:convert-opset-up-ir`` (:mod:`passcheck.passes.onnxscript_version_converter`):
onnxscript's converter through its ``ir.Model`` entry point, which writes the target opset import (the ModelProto
entry point keeps the source one, docs/found.md row 191), so an adapter that keeps a node whose meaning changes
between the two opsets is judged at the target opset (docs/recall.md round 8c, M62)."""

from __future__ import annotations

import contextlib

import onnx
from onnx import helper

from passcheck.cases import load_builtin
from passcheck.passes import get_pass
from passcheck.passes.onnxscript_version_converter import (
    OnnxscriptVersionConverterAdapter,
    OnnxscriptVersionConverterIrAdapter,
)
from tests.passes._helpers import cell_of

PAD = load_builtin().get("count/pad-static").build("common")  # opset 18: Pad has a new version at 19


def _dft17_axis_omitted() -> onnx.ModelProto:
    """``y = DFT-17(x)`` at opset 19, ``x: float[2, 3, 4, 1]``: Operators.md DFT-17's ``axis`` defaults to 1,
    DFT-20's axis input to -2, which is axis 2 at rank 4."""
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2, 3, 4, 1])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [2, 3, 4, 2])
    graph = helper.make_graph([helper.make_node("DFT", ["x"], ["y"])], "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 19)], ir_version=9)


@contextlib.contextmanager
def _dft_adapter_keeps_the_node():
    """A planted converter defect: onnxscript's DFT 19 → 20 adapter replaced by one that keeps every node (the
    node is then only re-versioned, as onnxscript 0.3.2 … 0.6.2 did for an omitted ``axis``)."""
    from onnxscript.version_converter import _version_converter as vc

    key = next(k for k in vc.registry.op_adapters if k[1] == "DFT" and k[2] == 19)
    kept = vc.registry.op_adapters[key]
    vc.registry.op_adapters[key] = lambda node, op: None
    try:
        yield
    finally:
        vc.registry.op_adapters[key] = kept


class _Ir(OnnxscriptVersionConverterIrAdapter):
    id = "onnxscript:test-convert-opset-up-ir"


class _KeepsDftIr(_Ir):
    id = "onnxscript:test-keeps-dft-ir"

    def apply(self, model, workdir):
        with _dft_adapter_keeps_the_node():
            return super().apply(model, workdir)


class _KeepsDftProto(OnnxscriptVersionConverterAdapter):
    id = "onnxscript:test-keeps-dft-proto"

    def apply(self, model, workdir):
        with _dft_adapter_keeps_the_node():
            return super().apply(model, workdir)


def test_the_ir_entry_point_writes_the_target_opset_and_the_proto_one_does_not(tmp_path):
    ir_out = get_pass("onnxscript:convert-opset-up-ir").apply(
        onnx.ModelProto.FromString(PAD.SerializeToString()), tmp_path
    )
    proto_out = get_pass("onnxscript:convert-opset-up").apply(
        onnx.ModelProto.FromString(PAD.SerializeToString()), tmp_path
    )
    default = {o.domain: o.version for o in ir_out.opset_import}[""]
    assert default == 19, ir_out.opset_import
    assert {o.domain: o.version for o in proto_out.opset_import}[""] == 18  # docs/found.md row 191
    onnx.checker.check_model(ir_out, full_check=True)
    assert cell_of(_Ir(), PAD, "onnxscript-convert-ir/pad").verdict == "ok"


def test_an_adapter_that_keeps_a_changed_node_is_found_through_the_ir_entry_point_only():
    model = _dft17_axis_omitted()
    through_ir = cell_of(_KeepsDftIr(), model, "onnxscript-convert-ir/dft-kept")
    through_proto = cell_of(_KeepsDftProto(), model, "onnxscript-convert-ir/dft-kept-proto")
    assert "wrong-result" in {f.kind for f in through_ir.findings}, (through_ir.status, through_ir.findings)
    assert through_proto.verdict == "ok", through_proto.findings  # the model still imports opset 19
    real = cell_of(_Ir(), model, "onnxscript-convert-ir/dft")  # the installed adapter writes axis 1
    assert real.verdict == "ok" and real.status == "changed", real.findings
