"""The gate judges a form a tool refuses or dies on through its spelling without empty trailing slots (IR.md
§Optional Inputs and Outputs: ``""`` is an omitted slot; passcheck/mutations/slot_canonical.py, round 14e M228):
``empty-optional-outputs`` draws BatchNormalization, and the tools' failures on it are the ``input`` cell's findings
(found.md rows 905, 906), which the hunt counts documented. Real onnxruntime in an isolation worker, real checker."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper, parser

from passcheck.errors import PasscheckInternalError
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.slot_canonical import without_trailing_empty_slots
from passcheck.oracles.validity import Checker

REWRITE = "empty-optional-outputs"


def _batchnorm(opset: int) -> onnx.ModelProto:
    """``y = BatchNormalization(x, s, b, m, v)`` (inference mode), ``x: float[1, 2, 3, 3]``."""
    x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [1, 2, 3, 3])
    y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [1, 2, 3, 3])
    inits = [numpy_helper.from_array(np.array([1, 2], np.float32) + i, n) for i, n in enumerate("sbmv")]
    node = helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"])
    graph = helper.make_graph([node], "g", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _feeds():
    return [{"x": np.linspace(-1, 1, 18, dtype=np.float32).reshape(1, 2, 3, 3)}]


@pytest.fixture(scope="module")
def executor():
    from passcheck.passes.isolation import IsolatedExecutor

    with IsolatedExecutor() as ex:
        yield ex


def test_only_trailing_empty_slots_are_dropped_in_every_scope():
    m = parser.parse_model("""<ir_version: 8, opset_import: ["" : 13]>
    g (float[2] x, bool c) => (float[2] y) {
        y = If(c) <then_branch = t () => (float[2] a) { a = Identity(x) },
                   else_branch = e () => (float[2] b) { b = Neg(x) }>
    }""")
    assert without_trailing_empty_slots(m) is None  # nothing to drop: no copy
    m.graph.node[0].attribute[0].g.node[0].output.extend(["", ""])  # in a subgraph
    m.graph.node[0].input.extend(["", "x", ""])  # an interior "" is kept
    plain = without_trailing_empty_slots(m)
    assert list(plain.graph.node[0].input) == ["c", "", "x"]
    assert list(plain.graph.node[0].attribute[0].g.node[0].output) == ["a"]
    assert list(m.graph.node[0].input) == ["c", "", "x", ""]  # the model itself untouched


def test_empty_optional_outputs_draws_batchnormalization():
    for opset, slots in ((9, 4), (15, 2)):
        mutant, applied = REWRITES[REWRITE].apply(_batchnorm(opset))
        assert list(mutant.graph.node[0].output) == ["y", *[""] * slots] and applied.count == 1


def test_the_gate_keeps_batchnorm_9_with_empty_outputs_onnxruntime_dies_on(executor):
    """Row 906: onnxruntime dies running the ``""`` spelling (and the reference evaluator departs from onnxruntime on
    BatchNormalization-9 itself, so it cannot vouch); the spelling without the slots is the original: kept."""
    original = _batchnorm(9)
    mutant, _ = REWRITES[REWRITE].apply(original)
    assert "SIGSEGV" in (executor.run_model(mutant, _feeds()[0]).error or "")
    verify_equivalent(original, mutant, _feeds(), REWRITE, executor.run_model, checker=Checker(executor))


def test_the_gate_keeps_batchnorm_15_with_empty_outputs_the_checker_refuses(executor):
    """Row 905: onnx's inference refuses the ``""`` spelling of BatchNormalization-15 in inference mode."""
    original = _batchnorm(15)
    mutant, _ = REWRITES[REWRITE].apply(original)
    assert "number of op outputs should be 1" in (Checker(executor)(mutant) or "")
    verify_equivalent(original, mutant, _feeds(), REWRITE, executor.run_model, checker=Checker(executor))


def test_a_mutant_wrong_without_its_empty_slots_too_is_still_refused(executor):
    """Dropping the empty slots vouches only for the slots: a mutant that also computes something else is refused."""
    original = _batchnorm(15)
    mutant, _ = REWRITES[REWRITE].apply(original)
    mutant.graph.initializer[0].float_data[:] = [3.0, 3.0]  # the scale changed as well
    mutant.graph.initializer[0].ClearField("raw_data")
    with pytest.raises(PasscheckInternalError, match="not equivalent"):
        verify_equivalent(original, mutant, _feeds(), REWRITE, executor.run_model, checker=Checker(executor))


@pytest.mark.parametrize(("opset", "row"), [(9, "906"), (15, "905")])
def test_the_hunt_reports_the_tools_failure_as_the_documented_row(executor, opset, row):
    """The hunt's probe runs the pair: the ``input`` cell's finding on the ``""`` form is kept, and its signature is
    the documented row's (passcheck/hunt/documented.json)."""
    from passcheck.hunt import documented
    from passcheck.hunt.probe import Setting, probe
    from passcheck.signature import Signature

    original = _batchnorm(opset)
    mutant, _ = REWRITES[REWRITE].apply(original)
    out = probe(Setting(f"bn{opset}"), original, REWRITE, mutant, "onnx:infer-shapes", executor)
    assert out.status == "done", out.reason
    inputs = [f for f in out.findings if f.pass_id == "input"]
    assert inputs
    for f in inputs:
        sig = Signature.of(f, models=[original, mutant])
        rec = {"signature": sig.to_json(), "message": f.message}
        entry = documented.which(sig.key, rec)
        assert entry is not None and entry["row"] == row, (sig.key, f.message)


def test_trim_trailing_empty_keeps_interior_slots_and_says_whether_it_cut():
    """IR.md §Optional Inputs and Outputs: only trailing ``""`` slots can be left off; the one helper every
    rewrite uses keeps the interior ones (they hold later slots' positions)."""
    from passcheck.mutations._graph_edit import trim_trailing_empty

    n = helper.make_node("Resize", ["x", "", "scales", "", ""], ["y", ""])
    assert trim_trailing_empty(n.input) and list(n.input) == ["x", "", "scales"]
    assert trim_trailing_empty(n.output) and list(n.output) == ["y"]
    assert not trim_trailing_empty(n.input) and list(n.input) == ["x", "", "scales"]
