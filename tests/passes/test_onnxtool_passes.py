"""onnx-tool's passes (:mod:`passcheck.passes.onnxtool_passes`) with the real tool: a model every pass keeps is
``ok``; the tool's own defects on spellings the spec allows are caught (the annotations oracle on a shape it infers
wrong for ``Shape(start, end)``, the annotations and validity oracles on a dim with neither field it drops, the
numeric oracle on an initializer read only inside a subgraph it drops); a planted adapter that writes a wrong
annotation is caught; the binding is the first feeds' shapes and the output is judged on the agreeing runs only."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto as T
from onnx import helper as h

from passcheck.api import check_model
from passcheck.passes import get_pass, register_pass, unregister_pass
from passcheck.passes.onnxtool_passes import ADAPTERS, OnnxToolAdapter

pytest.importorskip("onnx_tool")
ALL = [a.id for a in ADAPTERS]


def _model(nodes, inputs, outputs, inits=(), opset=17) -> onnx.ModelProto:
    m = h.make_model(
        h.make_graph(nodes, "g", inputs, outputs, initializer=list(inits)),
        opset_imports=[h.make_opsetid("", opset)],
        ir_version=8,
    )
    onnx.checker.check_model(m, full_check=True)
    return m


def _vi(name, shape, elem=T.FLOAT):
    return h.make_tensor_value_info(name, elem, shape)


def _cells(model, passes, name):
    report = check_model(model, passes, name=name)
    return {c.pass_id: c for c in report.cells if c.pass_id in passes}


def _oracles(cell) -> set[str]:
    return {f.oracle for f in cell.findings}


def test_a_plain_model_is_ok_through_every_pass():
    m = _model(
        [h.make_node("Add", ["x", "w"], ["a"]), h.make_node("Relu", ["a"], ["y"])],
        [_vi("x", ["N", 3])],
        [_vi("y", ["N", 3])],
        [h.make_tensor("w", T.FLOAT, [3], [1, 2, 3])],
    )
    cells = _cells(m, ALL, "onnx-tool/plain")
    for p in ALL:
        assert cells[p].status in ("changed", "unchanged"), (p, cells[p].status, cells[p].error)
        assert cells[p].verdict == "ok", (p, cells[p].findings)


def test_shape_infer_is_bound_to_the_first_feeds_and_judged_on_agreeing_runs():
    m = _model([h.make_node("Relu", ["x"], ["y"])], [_vi("x", ["N", 3])], [_vi("y", ["N", 3])])
    feeds = [{"x": np.zeros((2, 3), np.float32)}, {"x": np.zeros((5, 3), np.float32)}]
    given, keep = get_pass("onnx-tool:shape-infer").bound(feeds, m)
    assert keep == [0] and given.shapes["x"].shape == (2, 3)
    assert get_pass("onnx-tool:fuse").bound(feeds, m) == (get_pass("onnx-tool:fuse"), [])


def test_shape_start_end_inferred_wrong_is_caught():
    """Shape-15 ``start=1``: the output is ``[3]`` (Operators.md, Shape); onnx-tool 1.0.1 writes ``[2]``."""
    m = _model(
        [h.make_node("Shape", ["x"], ["s"], start=1), h.make_node("Identity", ["s"], ["y"])],
        [_vi("x", [2, 3, 4])],
        [_vi("y", [2], T.INT64)],
        opset=15,
    )
    cell = _cells(m, ["onnx-tool:shape-infer"], "onnx-tool/shape-start")["onnx-tool:shape-infer"]
    assert cell.status == "changed" and "annotations" in _oracles(cell), (cell.status, cell.findings)


def test_a_dim_with_neither_field_dropped_is_caught():
    """IR.md: a Dimension with neither field is an unknown size; onnx-tool 1.0.1 writes the axis away."""
    m = _model([h.make_node("Relu", ["x"], ["y"])], [_vi("x", [None, 3])], [_vi("y", [None, 3])])
    cell = _cells(m, ["onnx-tool:reorder"], "onnx-tool/anonymous")["onnx-tool:reorder"]
    assert {"annotations"} <= _oracles(cell), cell.findings


def test_an_initializer_read_only_in_a_subgraph_dropped_is_caught():
    """IR.md: a subgraph may read a name of its outer scope, an initializer too; onnx-tool 1.0.1 keeps only the
    initializers its main-graph nodes read."""
    body = h.make_graph([h.make_node("Add", ["xi", "k"], ["yi"])], "body", [_vi("xi", [2])], [_vi("yi", [2])])
    m = _model(
        [h.make_node("Scan", ["x"], ["y"], body=body, num_scan_inputs=1)],
        [_vi("x", [3, 2])],
        [_vi("y", [3, 2])],
        [h.make_tensor("k", T.FLOAT, [2], [1, 2])],
    )
    cell = _cells(m, ["onnx-tool:reorder"], "onnx-tool/outer-init")["onnx-tool:reorder"]
    assert cell.status == "changed" and cell.findings, (cell.status, cell.error, cell.findings)


class _Planted(OnnxToolAdapter):
    """Planted: the real shape inference, then every value_info's first dim made 7."""

    def __init__(self):
        super().__init__("shape-infer")
        self.id = "planted:onnx-tool-wrong-dim"

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        for v in out.graph.value_info:
            dims = v.type.tensor_type.shape.dim
            if dims:
                dims[0].dim_value = 7
        return out


def test_a_planted_wrong_annotation_is_caught():
    m = _model(
        [h.make_node("Relu", ["x"], ["a"]), h.make_node("Neg", ["a"], ["y"])],
        [_vi("x", [2, 3])],
        [_vi("y", [2, 3])],
    )
    planted = register_pass(_Planted())
    try:
        cell = _cells(m, [planted.id], "onnx-tool/planted")[planted.id]
    finally:
        unregister_pass(planted.id)
    assert "annotations" in _oracles(cell), (cell.status, cell.findings)


def test_an_op_without_a_node_class_is_unavailable():
    m = _model([h.make_node("CastLike", ["x", "x"], ["y"])], [_vi("x", [2])], [_vi("y", [2])], opset=15)
    cell = _cells(m, ["onnx-tool:fuse"], "onnx-tool/castlike")["onnx-tool:fuse"]
    assert cell.status == "unavailable" and "CastLike" in (cell.error or ""), (cell.status, cell.error)


class _FoldsShapes(OnnxToolAdapter):
    """Planted: the real constant folding, declared as a pass that also folds shape-derived values."""

    folds_shapes = True

    def __init__(self):
        super().__init__("fold-constants")
        self.id = "planted:onnx-tool-folds-shapes"


class _FoldsNothing(OnnxToolAdapter):
    """Planted: declared as onnx-tool's folding (constants only), returns the model as given."""

    def __init__(self):
        super().__init__("fold-constants")
        self.id = "planted:onnx-tool-folds-nothing"

    def apply(self, model, workdir):
        return model


def _folding(model, adapter) -> list:
    planted = register_pass(adapter) if adapter is not None else None
    pid = planted.id if planted is not None else "onnx-tool:fold-constants"
    try:
        cell = _cells(model, [pid], f"onnx-tool/{pid}")[pid]
    finally:
        if planted is not None:
            unregister_pass(planted.id)
    return [f for f in cell.findings if f.oracle == "folding"]


def test_folding_a_shape_of_a_fed_input_is_not_asked_of_a_constants_only_folder():
    """``Graph.__is_node_constant__``: a node reading a graph input is not constant to onnx-tool, so its Shape of a
    fed static input is not a missed fold (``folds_shapes = False``); the same output declared by a pass that folds
    shapes is one, and a constant-only chain left unfolded is one for onnx-tool's declaration too."""
    shaped = _model(
        [
            h.make_node("Shape", ["x"], ["s"]),
            h.make_node("Cast", ["s"], ["f"], to=T.FLOAT),
            h.make_node("Add", ["x", "f"], ["y"]),
        ],
        [_vi("x", [3])],
        [_vi("y", [3])],
    )
    assert _folding(shaped, None) == []
    assert _folding(shaped, _FoldsShapes()), "a pass declaring folds_shapes is judged on shape-derived values"
    constant = _model(
        [h.make_node("Add", ["a", "b"], ["c"]), h.make_node("Add", ["x", "c"], ["y"])],
        [_vi("x", [2])],
        [_vi("y", [2])],
        [h.make_tensor("a", T.FLOAT, [2], [1, 2]), h.make_tensor("b", T.FLOAT, [2], [3, 4])],
    )
    assert _folding(constant, _FoldsNothing()), "a constant-only node left is still a missed fold"


def _constant_lrn() -> onnx.ModelProto:
    """``y = x + LRN(c)``, ``c`` an initializer: onnx-tool's folding reaches the LRN node, whose class has no
    ``value_infer`` (the base ``Node``'s NotImplementedError)."""
    c = np.linspace(0, 1, 48, dtype=np.float32).reshape(1, 3, 4, 4)
    return _model(
        [h.make_node("LRN", ["c"], ["l"], size=3), h.make_node("Add", ["x", "l"], ["y"])],
        [_vi("x", [1, 3, 4, 4])],
        [_vi("y", [1, 3, 4, 4])],
        [onnx.numpy_helper.from_array(c, "c")],
    )


def test_folding_an_op_class_without_value_infer_is_unavailable_in_the_tools_words():
    cell = _cells(_constant_lrn(), ["onnx-tool:fold-constants"], "onnx-tool/lrn")["onnx-tool:fold-constants"]
    assert cell.status == "unavailable" and "has no value_infer" in (cell.error or ""), (cell.status, cell.error)
    assert not cell.findings, cell.findings


def test_without_the_stated_limit_the_same_fold_is_a_crash(tmp_path, monkeypatch):
    """Planted: the adapter no longer recognizes the tool's words, so the same model crashes the pass."""
    from passcheck.passes import onnxtool_passes

    adapter = get_pass("onnx-tool:fold-constants")
    assert adapter.run(_constant_lrn(), tmp_path).status == "unavailable"
    monkeypatch.setattr(onnxtool_passes, "NO_VALUE_INFER", "words the tool never prints")
    out = adapter.run(_constant_lrn(), tmp_path)
    assert out.status == "crashed" and "NotImplementedError" in (out.error or ""), (out.status, out.error)
