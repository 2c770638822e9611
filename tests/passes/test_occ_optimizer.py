"""``occ:optimize*`` (:mod:`passcheck.passes.occ_optimizer`) and ``ort-tools:optimize-qdq``
(:mod:`passcheck.passes.ort_qdq_helpers`), run for real on tiny models and judged by the existing oracles: a planted
wrong fold / wrong rewrite is caught, the real optimizer's crashes on valid spellings are findings, and what the tool
refuses by design (opset < 9) is ``unavailable`` (planted breaks in the docstrings)."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.passes import get_pass
from passcheck.passes.occ_optimizer import ADAPTERS, FOLDS, OccOptimizerAdapter
from passcheck.passes.ort_qdq_helpers import OptimizeQdqModelAdapter
from tests.passes._helpers import cell_of

IDS = tuple(a.id for a in ADAPTERS)
FAILED = {"invalid-model", "rejected", "annotation-violated", "wrong-result", "crashed"}
K = numpy_helper.from_array(np.array([1.0, 2.0, 3.0], np.float32), "k")


def _model(nodes, outputs=("y",), initializers=(), opset=17):
    """Float ``[3]`` graph input ``x`` → ``outputs`` (float ``[3]``) from ``nodes`` (opset ``opset``, IR 8)."""
    graph = helper.make_graph(
        nodes,
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info(o, TensorProto.FLOAT, [3]) for o in outputs],
        list(initializers),
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


#: x + (initializer k * initializer two): the Mul folds, an Identity goes.
FOLDABLE = _model(
    [
        helper.make_node("Mul", ["k", "two"], ["k2"]),
        helper.make_node("Identity", ["x"], ["xi"]),
        helper.make_node("Add", ["xi", "k2"], ["y"]),
    ],
    initializers=[K, numpy_helper.from_array(np.array(2.0, np.float32), "two")],
)


def _fresh(variant: str) -> OccOptimizerAdapter:
    adapter = OccOptimizerAdapter(variant)
    adapter.id = f"occ:test-{variant}"
    return adapter


@pytest.mark.parametrize("variant", ["optimize", "optimize-stop-initializers"])
def test_each_variant_rewrites_a_tiny_model_with_no_finding(variant):
    cell = cell_of(_fresh(variant), FOLDABLE, f"occopt/{variant}")
    assert cell.status == "changed" and "Identity" not in cell.ops_after, (cell.error, cell.ops_after)
    assert cell.findings == [], cell.findings
    # the defaults fold k * two; with every initializer stopped the folder leaves the Mul
    assert ("Mul" in cell.ops_after) == (variant == "optimize-stop-initializers"), cell.ops_after


def test_the_adapters_declare_what_the_source_folds():
    """Parity reads ``by_type`` and the folding oracle ``folds_constants``: the folder evaluates its ``_On<op>``
    methods only, so no completeness is promised (planted break: ``folds_constants = True`` fails here)."""
    from onnxconverter_common._opt_const_folding import OnnxGraphContext

    methods = {n[3:] for n in vars(OnnxGraphContext) if n.startswith("_On")}
    for adapter in ADAPTERS:
        assert adapter.by_type == FOLDS == methods
        caps = adapter.capabilities
        assert caps.optimizes and not caps.folds_constants and caps.min_opset == 9


class _WrongFold(OccOptimizerAdapter):
    """A broken optimizer: the folded constant written one off (a fold that computed the wrong value)."""

    def __init__(self):
        super().__init__("optimize")
        self.id = "occ:broken-fold"

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        folded = [t for t in out.graph.initializer if t.name == "k2"]
        assert folded, "the real optimizer no longer folds k * 2"
        folded[0].CopyFrom(numpy_helper.from_array(numpy_helper.to_array(folded[0]) + 1, "k2"))
        return out


def test_a_wrong_fold_is_caught():
    kinds = {f.kind for f in cell_of(_WrongFold(), FOLDABLE, "occopt/broken").findings}
    assert "wrong-result" in kinds, kinds


def test_opset_8_is_outside_what_the_optimizer_takes():
    """``optimize_onnx_graph`` raises below opset 9 by design: ``unavailable``, no finding (planted break:
    ``min_opset = None`` makes the cell ``crashed``)."""
    cell = cell_of(_fresh("optimize"), _model([helper.make_node("Relu", ["x"], ["y"])], opset=8), "occopt/opset8")
    assert cell.status == "unavailable" and cell.findings == [], (cell.status, cell.findings)


def test_an_input_less_node_the_folder_does_not_assume_is_unavailable():
    """``_dfs_calc`` asserts "Assume only the generator operation node hasn't any inputs": a SequenceEmpty (valid,
    Operators.md SequenceEmpty-11) is outside what the folder states it handles, so ``unavailable`` with its words
    (planted break: dropping the ``except AssertionError`` in ``apply`` makes the cell ``crashed``)."""
    graph = helper.make_graph(
        [
            helper.make_node("SequenceEmpty", [], ["s"], dtype=TensorProto.FLOAT),
            helper.make_node("SequenceInsert", ["s", "x"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
    )
    element = helper.make_tensor_type_proto(TensorProto.FLOAT, [3])
    graph.output[0].type.CopyFrom(helper.make_sequence_type_proto(element))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    cell = cell_of(_fresh("optimize"), model, "occopt/sequence-empty")
    assert cell.status == "unavailable" and "generator operation" in (cell.error or ""), (cell.status, cell.error)
    assert cell.findings == [], cell.findings


def test_a_constant_spelled_value_floats_crashes_the_folder():
    """A real defect of the tool, reached by a valid spelling (Operators.md Constant-12: ``value_floats``):
    ``_OnConstant`` reads the ``value`` attribute only."""
    model = _model(
        [
            helper.make_node("Constant", [], ["k"], value_floats=[1.0, 2.0, 3.0]),
            helper.make_node("Add", ["x", "k"], ["y"]),
        ]
    )
    cell = cell_of(_fresh("optimize"), model, "occopt/value-floats")
    assert cell.status == "crashed" and {f.kind for f in cell.findings} & FAILED, (cell.status, cell.findings)


def test_the_qdq_helper_is_a_round_trip():
    """``optimize_qdq_model`` loads and saves: the model comes back unchanged with no finding."""
    adapter = OptimizeQdqModelAdapter()
    adapter.id = "ort-tools:test-optimize-qdq"
    cell = cell_of(adapter, FOLDABLE, "qdq/round-trip")
    assert cell.status == "unchanged" and cell.findings == [], (cell.status, cell.error, cell.findings)
    assert get_pass("ort-tools:optimize-qdq").id == "ort-tools:optimize-qdq"


class _QdqDropsANode(OptimizeQdqModelAdapter):
    """A broken helper: the saved model's last node's output wired from its first input (the node dropped)."""

    id = "ort-tools:broken-optimize-qdq"

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        last = out.graph.node[-1]
        out.graph.node.remove(last)
        out.graph.node.append(helper.make_node("Identity", [last.input[0]], [last.output[0]]))
        return out


def test_a_helper_that_changes_the_computation_is_caught():
    kinds = {f.kind for f in cell_of(_QdqDropsANode(), FOLDABLE, "qdq/broken").findings}
    assert "wrong-result" in kinds, kinds
