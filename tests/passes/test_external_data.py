"""``PASS+external-data`` (:mod:`passcheck.passes.external_data`): a pass given its model with the initializers'
bytes in a file beside it (IR.md §External Tensor Data), its output read back before the oracles judge it."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from passcheck.errors import PasscheckError, UnknownIdError
from passcheck.passes import get_pass
from passcheck.passes._registry import conversion
from passcheck.passes.external_data import LOCATION, ExternalDataAdapter, externalize
from passcheck.passes.version_converter import VersionConverterAdapter
from tests.passes._helpers import cell_of

W = np.arange(12, dtype=np.float32).reshape(3, 4)


def _model(opset: int = 13) -> onnx.ModelProto:
    """y = Relu(x + w), w a raw_data initializer [3, 4] (numpy_helper's spelling)."""
    graph = helper.make_graph(
        [helper.make_node("Add", ["x", "w"], ["s"]), helper.make_node("Relu", ["s"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [3, 4])],
        [numpy_helper.from_array(W, "w")],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


class _DropsReferences(VersionConverterAdapter):
    """A converter that rebuilds every tensor from its value fields only, as onnx 1.16.2–1.18.0's
    ``tensorProtoToTensor`` did (onnx/onnx#6847): an external tensor comes back with dims and no data."""

    def __init__(self):
        super().__init__(14)
        self.id = "planted:convert-drops-external"

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        for t in out.graph.initializer:
            if t.data_location == onnx.TensorProto.EXTERNAL:
                del t.external_data[:]
                t.data_location = onnx.TensorProto.DEFAULT
        return out


def test_the_id_wraps_any_pass():
    adapter = get_pass("onnx:convert-opset-down+external-data")
    assert isinstance(adapter, ExternalDataAdapter) and adapter.inner.id == "onnx:convert-opset-down"
    assert adapter.capabilities == adapter.inner.capabilities and adapter.tools == ("onnx",)
    with pytest.raises(PasscheckError):
        get_pass("+external-data")
    with pytest.raises(UnknownIdError):
        get_pass("onnx:no-such-pass+external-data")
    m = _model()
    assert conversion(adapter.id, m) == conversion("onnx:convert-opset-down", m)  # the same boundary step


def test_the_tool_is_given_references_only(tmp_path):
    seen = []

    class _Records(VersionConverterAdapter):
        def apply(self, model, workdir):
            seen.append(onnx.ModelProto.FromString(model.SerializeToString()))
            return super().apply(model, workdir)

    out = ExternalDataAdapter(_Records(14)).run(_model(), tmp_path)
    (given,) = seen
    (w,) = given.graph.initializer
    assert w.data_location == onnx.TensorProto.EXTERNAL and not w.HasField("raw_data")
    assert {e.key: e.value for e in w.external_data}["location"] == LOCATION and (tmp_path / LOCATION).is_file()
    assert out.status == "changed" and out.model.opset_import[0].version == 14
    (back,) = out.model.graph.initializer
    assert back.data_location == onnx.TensorProto.DEFAULT
    np.testing.assert_array_equal(numpy_helper.to_array(back), W)


def test_the_current_converter_keeps_the_references():
    """onnx >= 1.19 carries the references through its IR: the output is valid and computes the same."""
    cell = cell_of(ExternalDataAdapter(VersionConverterAdapter(14)), _model(), "external-data/current")
    assert cell.status == "changed" and not cell.findings, (cell.status, cell.error, cell.findings)


def test_a_tool_that_drops_the_references_is_caught():
    broken = _DropsReferences()
    assert not cell_of(broken, _model(), "external-data/plain").findings  # the plain model has no reference to drop
    cell = cell_of(ExternalDataAdapter(broken), _model(), "external-data/planted")
    kinds = {(f.oracle, f.kind) for f in cell.findings}
    assert ("validity", "invalid-model") in kinds, cell.findings
    assert any("one and only one value field" in f.message for f in cell.findings)


def test_tools_that_read_tensor_values_and_models_without_raw_data_are_unavailable(tmp_path):
    out = get_pass("onnx:infer-shapes+external-data").run(_model(), tmp_path)
    assert out.status == "unavailable" and "reads tensor values" in out.error
    m = _model()
    m.graph.initializer[0].CopyFrom(helper.make_tensor("w", onnx.TensorProto.FLOAT, [3, 4], W.ravel().tolist()))
    out = get_pass("onnx:convert-opset-14+external-data").run(m, tmp_path)
    assert out.status == "unavailable" and "no raw_data initializer" in out.error


def test_externalize_moves_subgraph_initializers(tmp_path):
    then = helper.make_graph(
        [helper.make_node("Add", ["x", "b"], ["t"])],
        "then",
        [],
        [helper.make_tensor_value_info("t", onnx.TensorProto.FLOAT, [3, 4])],
        [numpy_helper.from_array(W, "b")],
    )
    other = helper.make_graph(
        [helper.make_node("Identity", ["x"], ["e"])],
        "else",
        [],
        [helper.make_tensor_value_info("e", onnx.TensorProto.FLOAT, [3, 4])],
    )
    graph = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=then, else_branch=other)],
        "g",
        [
            helper.make_tensor_value_info("c", onnx.TensorProto.BOOL, []),
            helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [3, 4]),
        ],
        [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [3, 4])],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)
    assert externalize(m, tmp_path) == 1
    (branch,) = [a.g for a in m.graph.node[0].attribute if a.name == "then_branch"]
    assert branch.initializer[0].data_location == onnx.TensorProto.EXTERNAL


@pytest.mark.matrix
def test_a_matrix_puts_the_dropped_references_in_onnx_116_and_118_only(tmp_path):
    """onnx/onnx#6847 (fixed in 1.19.0): the converter's IR lost every external reference; the carrier's
    output then has an initializer with dims and no data, rejected by the checker, in those environments only."""
    from passcheck.report import read_report
    from tests.matrix.test_real_matrix import matrix

    out = tmp_path / "out"
    code = matrix(
        out,
        *("--env", "onnx-1.16", "--env", "onnx-1.18", "--env", "onnx-1.19", "--env", "onnx-1.23"),
        *("--case", "const-fold/transposed-weight:constant-only", "--pass", "onnx:convert-opset-up+external-data"),
    )
    cells, _ = read_report(out / "report.json")
    invalid = {
        c.env
        for c in cells
        if c.pass_id == "onnx:convert-opset-up+external-data" and c.form == "constant-only"
        for f in c.findings
        if (f.oracle, f.kind) == ("validity", "invalid-model")
    }
    assert invalid == {"onnx-1.16", "onnx-1.18"} and code == 1
