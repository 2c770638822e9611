"""A stated limit holds wherever its tool runs (``PassAdapter.stated_limit``, round 22c, M519): onnx-graphsurgeon's
importer skips a SPARSE_TENSOR attribute with the warning "Attribute of type SPARSE_TENSOR is currently
unsupported" (``OnnxImporter.import_attributes``); Polygraphy's FoldConstants imports the model with gs
(polygraphy/backend/onnx/loader.py), so a ``polygraphy:sanitize-fold*`` pass, whose ``steps`` name a gs pass, is
``unavailable`` with gs's words on such a model, as ``onnx-gs:*`` is (M504), and not an invalid-model finding."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from passcheck.passes import get_pass
from passcheck.passes._base import STATED_LIMIT

pytest.importorskip("onnx_graphsurgeon")
pytest.importorskip("polygraphy")


def _sparse_constant() -> onnx.ModelProto:
    """``y = Add(x, Constant(sparse_value=<float [3], one value>))``, opset 17 (Operators.md Constant-11+)."""
    values = numpy_helper.from_array(np.array([2.0], np.float32), "v")
    indices = numpy_helper.from_array(np.array([1], np.int64), "i")
    sparse = helper.make_sparse_tensor(values, indices, [3])
    nodes = [
        helper.make_node("Constant", [], ["c"], sparse_value=sparse, name="const"),
        helper.make_node("Add", ["x", "c"], ["y"], name="add"),
    ]
    f = onnx.TensorProto.FLOAT
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", f, [3])], [helper.make_tensor_value_info("y", f, [3])]
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


@pytest.mark.parametrize(
    "pass_id", ["onnx-gs:round-trip", "polygraphy:sanitize-fold", "polygraphy:sanitize-fold-recursive"]
)
def test_gs_limit_is_unavailable_wherever_gs_runs(pass_id, tmp_path):
    out = get_pass(pass_id).run(_sparse_constant(), tmp_path)
    assert out.status == "unavailable", (out.status, out.error)
    assert out.error.startswith(STATED_LIMIT) and "SPARSE_TENSOR is currently unsupported" in out.error


def test_a_pass_that_does_not_run_gs_still_runs(tmp_path):
    out = get_pass("polygraphy:infer-shapes").run(_sparse_constant(), tmp_path)
    assert out.status in ("changed", "unchanged"), (out.status, out.error)


def test_without_the_steps_limit_polygraphy_writes_an_invalid_model(tmp_path, monkeypatch):
    """Planted break: the step's limit not consulted (the behaviour before M519): Polygraphy runs and writes the
    Constant without its value, which the checker refuses."""
    adapter = get_pass("polygraphy:sanitize-fold")
    monkeypatch.setattr(type(adapter), "stated_limit", lambda self, model: None)
    out = adapter.run(_sparse_constant(), tmp_path)
    assert out.status in ("changed", "unchanged"), (out.status, out.error)
    with pytest.raises(Exception, match="One and only one of the attributes"):
        onnx.checker.check_model(out.model, full_check=True)
