"""``onnx:load-external-data`` (:mod:`passcheck.passes.onnx_external_load`): onnx's loader reads back every tensor
IR.md lets a model store externally — initializers, attribute tensors, nested graphs, model-local function bodies;
a loader that skips the function bodies (onnx 1.16.2's, onnx/onnx#6233) is caught."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.api import check_model
from passcheck.passes import get_pass
from passcheck.passes.onnx_external_load import LoadExternalDataAdapter, as_raw, externalize, tensors
from tests.passes._helpers import cell_of, script_apply


def _model():
    """``y = local.addc(x)``, the function's ``Constant`` a typed-data tensor; an If whose branch holds a raw one."""
    c = helper.make_tensor("c", TensorProto.FLOAT, [4], [0.0, 1.0, 2.0, 3.0])  # typed float_data: written as raw
    body = [helper.make_node("Constant", [], ["C"], value=c), helper.make_node("Add", ["X", "C"], ["Y"])]
    fn = helper.make_function("local", "addc", ["X"], ["Y"], body, [helper.make_opsetid("", 15)])
    b = numpy_helper.from_array(np.full(4, 2, dtype=np.float32), "b")
    out = helper.make_tensor_value_info("z_b", TensorProto.FLOAT, [4])
    branch = helper.make_graph([helper.make_node("Constant", [], ["z_b"], value=b)], "br", [], [out])
    nodes = [
        helper.make_node("addc", ["x"], ["s"], domain="local"),
        helper.make_node("If", ["flag"], ["k"], then_branch=branch, else_branch=branch),
        helper.make_node("Mul", ["s", "k"], ["y"]),
    ]
    inputs = [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
        helper.make_tensor_value_info("flag", TensorProto.BOOL, []),
    ]
    g = helper.make_graph(nodes, "g", inputs, [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])])
    opsets = [helper.make_opsetid("", 15), helper.make_opsetid("local", 1)]
    return helper.make_model(g, opset_imports=opsets, functions=[fn], ir_version=8)


def test_every_tensor_is_written_and_the_loader_gives_the_model_back(tmp_path):
    m = _model()
    given = onnx.ModelProto()
    given.CopyFrom(m)
    assert externalize(given, tmp_path) == 3  # the function's Constant and both branches' (one graph, twice)
    assert not any(t.HasField("raw_data") for t in tensors(given))
    report = check_model(m, ["onnx:load-external-data"], name="external/load")
    (cell,) = [c for c in report.cells if c.pass_id == "onnx:load-external-data"]
    assert cell.status in ("changed", "unchanged") and cell.verdict == "ok", (cell.status, cell.error, cell.findings)


class _SkipsFunctions(LoadExternalDataAdapter):
    """onnx 1.16.2's loader: the main graph and its nested graphs only, never ``ModelProto.functions``."""

    id = "onnx:broken-load-external-data"

    def apply(self, model, workdir):
        from onnx import external_data_helper as ed

        given = onnx.ModelProto()
        given.CopyFrom(model)
        externalize(given, workdir)
        skipped = onnx.ModelProto()
        skipped.CopyFrom(given)
        del skipped.functions[:]
        ed.load_external_data_for_model(skipped, str(workdir))
        given.graph.CopyFrom(skipped.graph)
        return given


def test_a_loader_that_skips_function_bodies_is_caught():
    cell = cell_of(_SkipsFunctions(), _model(), "external/broken")
    assert {"invalid-model", "crashed"} & {f.kind for f in cell.findings} or cell.status == "crashed", (
        cell.status,
        cell.findings,
    )


def test_the_reproducer_calls_it_as_the_adapter_does(tmp_path):
    from passcheck.repro.tools import tool_call

    ours = script_apply(tool_call("onnx:load-external-data"))(_model())
    theirs = get_pass("onnx:load-external-data").apply(_model(), tmp_path)
    assert ours.SerializeToString(deterministic=True) == theirs.SerializeToString(deterministic=True)
    # the loader marks each tensor read back DEFAULT explicitly; the bytes are the model's own
    expected = _model()
    assert [as_raw(t) for t in tensors(expected)] == [True, True, True]
    assert [t.raw_data for t in tensors(ours)] == [t.raw_data for t in tensors(expected)]
    assert all(t.data_location == TensorProto.DEFAULT and not t.external_data for t in tensors(ours))
