"""``onnx:add-prefix`` and ``onnx:extract-model`` (:mod:`passcheck.passes.onnx_model_utils`): onnx's renaming and
extraction utilities with the interface kept, on a library case; a broken renaming is caught."""

from __future__ import annotations

import onnx

from passcheck.api import check_model
from passcheck.cases import load_builtin
from passcheck.passes import get_pass
from passcheck.passes.onnx_model_utils import AddPrefixAdapter
from tests.passes._helpers import cell_of, script_apply

CASE = load_builtin().get("attributes/gemm-defaults").build("common")  # Gemm with an initializer, then Relu


def test_both_keep_the_interface_and_the_values_on_a_library_case():
    passes = ["onnx:add-prefix", "onnx:extract-model"]
    report = check_model(CASE, passes, name="onnx-utils/gemm")
    cells = {c.pass_id: c for c in report.cells if c.pass_id in passes}
    assert cells["onnx:add-prefix"].status == "changed", cells["onnx:add-prefix"].error
    for c in cells.values():
        assert c.verdict == "ok", (c.pass_id, c.status, c.error, c.findings)
    assert not any(get_pass(p).optimizes or get_pass(p).folds_constants for p in passes)


class _PrefixesInitializersOnly(AddPrefixAdapter):
    """A broken renaming: prefixes the initializers but not the node inputs that read them."""

    id = "onnx:broken-add-prefix"

    def apply(self, model, workdir):
        out = onnx.ModelProto()
        out.CopyFrom(model)
        for t in out.graph.initializer:
            t.name = "p_" + t.name
        return out


def test_a_renaming_that_misses_the_readers_is_caught():
    cell = cell_of(_PrefixesInitializersOnly(), CASE, "onnx-utils/broken")
    assert {"wrong-result", "invalid-model"} & {f.kind for f in cell.findings}, cell.findings


def test_a_reproducer_calls_them_as_the_adapters_do(tmp_path):
    from passcheck.repro.tools import tool_call

    for pid in ("onnx:add-prefix", "onnx:extract-model"):
        call = tool_call(pid)
        assert call is not None, pid
        ours = script_apply(call)(onnx.ModelProto.FromString(CASE.SerializeToString()))
        theirs = get_pass(pid).apply(onnx.ModelProto.FromString(CASE.SerializeToString()), tmp_path)
        assert ours.graph.SerializeToString(deterministic=True) == theirs.graph.SerializeToString(deterministic=True)
