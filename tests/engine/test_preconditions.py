"""A pass declines a model outside what its tool documents it supports: ``unavailable`` with the
reason, not run and not a finding; inside that range the tool runs as before."""

from __future__ import annotations

import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.api import check_model
from passcheck.passes import get_pass
from passcheck.records import NOT_RUN


def _relu(opset: int) -> onnx.ModelProto:
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)], ir_version=3 if opset < 8 else 7)


def test_symbolic_shape_inference_below_its_minimum_opset_is_unavailable():
    report = check_model(_relu(6), ["ort:symbolic-shape-infer"], allow_unavailable=True)
    cell = next(c for c in report.cells if c.pass_id == "ort:symbolic-shape-infer")
    assert cell.status == "unavailable" and cell.verdict == "unavailable" and not cell.findings, cell
    assert "opset 7 and above" in cell.error and "opset 6" in cell.error
    assert report.exit_code == 0
    named = check_model(_relu(6), ["ort:symbolic-shape-infer"])  # asked for, and not run: not checked
    assert named.exit_code == 1 and "opset 7 and above" in named.unchecked[0].unchecked[NOT_RUN]


def test_symbolic_shape_inference_within_its_range_runs():
    report = check_model(_relu(13), ["ort:symbolic-shape-infer"])
    cell = next(c for c in report.cells if c.pass_id == "ort:symbolic-shape-infer")
    assert cell.status in ("changed", "unchanged") and cell.verdict == "ok", cell


def test_adapter_run_respects_the_precondition(tmp_path):
    out = get_pass("ort:symbolic-shape-infer").run(_relu(6), tmp_path)
    assert out.status == "unavailable" and "opset 7 and above" in out.error


def test_version_converter_beyond_the_installed_onnx_is_unavailable():
    newest = onnx.defs.onnx_opset_version()
    if newest >= 30:
        pytest.skip("the installed onnx knows every opset passcheck accepts as a target")
    pid = f"onnx:convert-opset-{newest + 1}"
    report = check_model(_relu(13), [pid])
    cell = next(c for c in report.cells if c.pass_id == pid)
    assert cell.status == "unavailable" and not cell.findings and f"1..{newest}" in cell.error, cell


def test_a_precondition_that_raises_is_a_finding_not_a_crash():
    from passcheck.passes import PassAdapter, register_pass, unregister_pass

    class Broken(PassAdapter):
        id = "test:broken-precondition"

        def precondition(self, model):
            raise KeyError("opset")

        def apply(self, model, workdir):
            return model

    register_pass(Broken())
    try:
        report = check_model(_relu(13), ["test:broken-precondition"])
    finally:
        unregister_pass("test:broken-precondition")
    cell = next(c for c in report.cells if c.pass_id == "test:broken-precondition")
    assert cell.status == "crashed" and "precondition raised KeyError" in cell.error and cell.findings, cell


def test_the_engine_asks_each_pass_once_per_form(monkeypatch):
    """The batch of passes sent to the isolation worker and the per-pass loop share one answer."""
    import collections

    import passcheck.engine as engine

    asked: collections.Counter = collections.Counter()
    real = engine._precondition

    def counted(adapter, model):
        asked[adapter.id] += 1
        return real(adapter, model)

    monkeypatch.setattr(engine, "_precondition", counted)
    passes = ["ort:basic", "onnx:infer-shapes", "ort:symbolic-shape-infer"]
    report = check_model(_relu(13), passes, forms={"other": _relu(14)})  # isolated: passes go in one batch
    assert report.exit_code == 0 and asked == {p: 2 for p in passes}  # two forms, once each
