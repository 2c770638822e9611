"""What a :class:`~passcheck.oracles._context.FormRun` means when its builder states less, and what
``op_counts`` walks: behaviours survivors of ``bench/mutation_score.py`` showed unguarded, on real
onnxruntime pass outputs and runs."""

from __future__ import annotations

import onnx
from onnx import helper

from passcheck.oracles import folding, parity
from passcheck.oracles._context import FormRun, op_counts
from passcheck.passes import get_pass
from tests.oracles.test_folding_survivors import _constants
from tests.oracles.test_oracle_power import _form_run
from tests.oracles.test_parity_defaults import _conv_bn
from tests.runtime.test_graph_index_kinds import _body, _model


def test_a_run_built_without_saying_its_pass_folds_constants_is_not_judged_for_missed_folding():
    """Mutant killed: ``folds_constants: bool = False`` → ``True``: a FormRun that does not say its pass folds
    (the engine's input cells, an oracle's own tests) had its constant-only Add named a missed fold."""
    assert folding.check(_form_run(_constants(3), [(2,)])) == []
    (f,) = folding.check(_form_run(_constants(3), [(2,)], folds_constants=True))  # control: the fold is there
    assert (f.kind, f.details["node"]) == ("missed-optimization", "constants_only")


def test_a_run_built_without_saying_its_pass_optimizes_gets_no_op_type_parity(tmp_path):
    """Mutant killed: ``optimizes: bool = False`` → ``True``: forms whose FormRuns do not say the pass rewrites
    the graph were compared op type by op type, and the form onnxruntime left a BatchNormalization in (a no-op
    ReduceSum between it and the Conv) was blamed for a missed fusion."""
    detour = _conv_bn(False)
    detour.graph.node.insert(1, helper.make_node("ReduceSum", ["c"], ["c2"], name="noop", noop_with_empty_axes=1))
    detour.graph.node[2].input[0] = "c2"

    forms = {"common": _conv_bn(False), "detour": detour}
    outcomes = {form: get_pass("ort:basic").run(model, tmp_path) for form, model in forms.items()}
    assert all(o.ok for o in outcomes.values()), outcomes
    assert "BatchNormalization" not in op_counts(outcomes["common"].model)  # fused in common

    def runs(**kw) -> list[FormRun]:
        return [FormRun("c", f, "ort:basic", forms[f], outcomes[f], [], [], [], **kw) for f in forms]

    assert parity.check(runs()) == []
    (f,) = parity.check(runs(optimizes=True))  # control: the parity the flag turns on
    assert (f.form, f.kind) == ("detour", "missed-optimization"), f.message


def test_op_counts_walk_the_graphs_of_a_graphs_attribute():
    """Mutant killed: ``for sub in a.graphs`` made empty: the nodes of a GRAPHS attribute's graphs (IR.md
    §Attributes: ``graphs``, a list of graphs; a custom op may carry one) were not counted as computed."""
    node = helper.make_node("Branches", ["x"], ["y"], domain="custom.x", bodies=[_body("Relu"), _body("Neg")])
    assert node.attribute[0].type == onnx.AttributeProto.GRAPHS
    assert op_counts(_model(node)) == {"custom.x::Branches": 1, "Relu": 1, "Neg": 1}
