"""``ort-quant:pre-process`` / ``-no-symbolic`` (:mod:`passcheck.passes.ort_quant_preprocess`): onnxruntime's
``quant_pre_process`` on a library case, judged as any optimizing pass; a broken output is caught."""

from __future__ import annotations

import onnx
from onnx import numpy_helper

from passcheck.api import check_model
from passcheck.cases import load_builtin
from passcheck.passes import get_pass
from passcheck.passes.ort_quant_preprocess import VARIANTS, OrtQuantPreProcessAdapter
from tests.passes._helpers import cell_of, script_apply

CONV_BN = load_builtin().get("optional-input/conv-bn").build("common")  # every initializer read (docs/found.md row 194)


def test_each_variant_optimizes_a_library_case_and_keeps_its_values():
    passes = [f"ort-quant:{v}" for v in VARIANTS]
    report = check_model(CONV_BN, passes, name="ort-quant/conv-bn")
    for c in (c for c in report.cells if c.pass_id in passes):
        assert c.status == "changed" and "BatchNormalization" not in c.ops_after, (c.pass_id, c.error, c.ops_after)
        # with a ModelProto and no symbolic inference it empties the caller's initializers (docs/found.md row 194)
        allowed = {"input-mutated"} if c.pass_id.endswith("no-symbolic") else set()
        assert {f.kind for f in c.findings} <= allowed, (c.pass_id, c.findings)
    assert get_pass("ort-quant:pre-process").optimizes and get_pass("ort-quant:pre-process").folds_constants


class _ScalesAWeight(OrtQuantPreProcessAdapter):
    """A broken pre-process: its output's first float initializer doubled."""

    def __init__(self):
        super().__init__("pre-process")
        self.id = "ort-quant:broken-scaled"

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        t = next(t for t in out.graph.initializer if t.data_type == onnx.TensorProto.FLOAT)
        t.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(t) * 2, t.name))
        return out


def test_a_pre_process_that_changes_a_weight_is_a_wrong_result():
    cell = cell_of(_ScalesAWeight(), CONV_BN, "ort-quant/broken")
    assert "wrong-result" in {f.kind for f in cell.findings}, cell.findings


def test_a_reproducer_calls_it_as_the_adapter_does(tmp_path):
    from passcheck.repro.tools import tool_call

    for v in VARIANTS:
        call = tool_call(f"ort-quant:{v}")
        assert call is not None, v
        ours = script_apply(call)(onnx.ModelProto.FromString(CONV_BN.SerializeToString()))
        theirs = get_pass(f"ort-quant:{v}").apply(onnx.ModelProto.FromString(CONV_BN.SerializeToString()), tmp_path)
        assert [n.op_type for n in ours.graph.node] == [n.op_type for n in theirs.graph.node]


def test_it_writes_nothing_into_the_callers_folder(tmp_path, monkeypatch):
    """Its symbolic shape inference saves ``sym_shape_infer_temp.onnx`` into the current folder when it cannot
    infer every shape (an Add of two inputs with anonymous dims): the adapter runs it from its work folder."""
    from onnx import TensorProto, helper

    x, y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, [None]) for n in ("x", "y"))
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "y"], ["z"])],
        "g",
        [x, y],
        [helper.make_tensor_value_info("z", TensorProto.FLOAT, None)],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    here = tmp_path / "caller"
    here.mkdir()
    monkeypatch.chdir(here)
    assert get_pass("ort-quant:pre-process").run(model, tmp_path).status in ("crashed", "changed", "unchanged")
    assert list(here.iterdir()) == []
