"""Annotations-oracle behaviours survivors of ``bench/mutation_score.py`` showed unguarded: which plan a
run's observations are checked against, and which values are read whole or by shape only; real
onnxruntime observations (``passcheck.runtime.observe``)."""

from __future__ import annotations

from onnx import TensorProto, helper, parser

from passcheck.oracles import annotations
from passcheck.oracles._context import FormRun
from passcheck.passes import PassOutcome
from passcheck.runtime.observe import observe
from passcheck.runtime.plan import Observed
from passcheck.runtime.session import RunResult
from tests.oracles.test_shape_annotations_survivors import RELU, X


def test_a_run_observed_on_another_model_is_checked_against_the_outputs_own_annotations():
    """Mutants killed in ``_compute``: ``plan is None and … is out`` → ``or``, and ``is out`` → ``is not
    out``: the plan a run carries for the model it observed (the input, ``y: float[N]``) was used for the pass
    output it is judged as (``y: float[5]``), whose wrong annotation then went unreported."""
    common = parser.parse_model(RELU.format(out="N"))
    observed, unobservable = observe(common, X, "ort")
    assert isinstance(observed, Observed) and observed.of is common and observed.plan is not None
    ran = [RunResult({}, observed, None, unobservable)]

    def judged(output):
        return annotations.check(FormRun("c", "f", "p", common, PassOutcome("p", "changed", output), [X], [], ran))

    (f,) = judged(parser.parse_model(RELU.format(out="5")))
    assert (f.kind, f.details["value"]) == ("annotation-violated", "y"), f
    assert judged(common) == []  # control: the carried plan is the output's own


def _seq_model(extra_tensor_annotation: bool):
    """``s = SequenceConstruct(x)``, a graph output annotated as a sequence; optionally also annotated as a
    tensor in value_info (two kinds for one value)."""
    g = helper.make_graph(
        [helper.make_node("SequenceConstruct", ["x"], ["s"]), helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [
            helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, [2]),
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [2]),
        ],
        value_info=[helper.make_tensor_value_info("s", TensorProto.FLOAT, [2])] if extra_tensor_annotation else [],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def test_a_value_with_any_annotation_not_a_tensor_is_read_whole_and_never_by_shape_only():
    """Mutants killed in ``_asked``: ``found != {"tensor_type"}`` → ``>`` or ``<`` (a sequence-only value was
    read neither whole nor by shape), and ``found == {"tensor_type"}`` → ``>=`` (a value annotated as a
    sequence and as a tensor was also listed as read by shape only, which ``observes_shapes`` keeps to
    values every annotation of which is a tensor type)."""
    oracle = annotations.ORACLE
    for both in (False, True):
        m = _seq_model(both)
        assert "s" in oracle.observes(m), (both, oracle.observes(m))
        assert oracle.observes_shapes(m) == ["x", "y"], (both, oracle.observes_shapes(m))
