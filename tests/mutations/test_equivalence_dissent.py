"""The equivalence gate's fallback (passcheck/mutations/equivalence.py): where onnxruntime cannot run a
mutant, the reference evaluator's differing value calls the rewrite wrong only when the evaluator
computes the original as onnxruntime does; else the mutant is Unverified. The subject is the
evaluator's SequenceInsert at position ``n`` (it inserts at the front; docs/found.md row 272)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.helper as oh
import pytest

from passcheck.errors import PasscheckInternalError
from passcheck.mutations import verify_equivalent
from passcheck.mutations.equivalence import Unverified
from passcheck.runtime.session import RunResult, run_ort


def _insert(position: int, extra: bool = False) -> onnx.ModelProto:
    """``y = ConcatFromSequence(SequenceInsert(SequenceConstruct(a, b, c), d, position))``; ``extra``:
    the sequence routed through an Identity (the mutant's spelling, same values)."""
    nodes = [oh.make_node("SequenceConstruct", ["a", "b", "c"], ["s"])]
    if extra:
        nodes.append(oh.make_node("Identity", ["s"], ["s2"]))
    nodes += [
        oh.make_node("SequenceInsert", ["s2" if extra else "s", "d", "pos"], ["t"]),
        oh.make_node("ConcatFromSequence", ["t"], ["y"], axis=0),
    ]
    g = oh.make_graph(
        nodes,
        "g",
        [oh.make_tensor_value_info(n, onnx.TensorProto.FLOAT, [1]) for n in "abcd"],
        [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [None])],
        [oh.make_tensor("pos", onnx.TensorProto.INT64, [], [position])],
    )
    return oh.make_model(g, opset_imports=[oh.make_opsetid("", 16)])


FEEDS = [{n: np.array([k + 1.0], np.float32) for k, n in enumerate("abcd")}]


def _refusing_mutants(original: onnx.ModelProto):
    """onnxruntime for the original; a refusal for any other model (as it refuses some valid spellings)."""

    def run(model, feeds):
        if model.SerializeToString() == original.SerializeToString():
            return run_ort(model, feeds)
        return RunResult({}, {}, error="[ONNXRuntimeError] : 9 : NOT_IMPLEMENTED : refused")

    return run


def test_the_evaluators_word_is_no_verdict_where_it_departs_from_onnxruntime_on_the_original():
    # position 3 = n: onnxruntime [1, 2, 3, 4]; the evaluator [4, 1, 2, 3] on both models
    original, mutant = _insert(3), _insert(3, extra=True)
    with pytest.raises(Unverified, match="departs from onnxruntime on the original"):
        verify_equivalent(original, mutant, FEEDS, "through-identity", runner=_refusing_mutants(original))


def test_a_mutant_the_evaluator_computes_otherwise_is_still_a_rewrite_bug_where_it_is_trusted():
    # position 1: both runtimes agree on the original, so the evaluator's word on the mutant counts
    original, wrong = _insert(1), _insert(2, extra=True)
    with pytest.raises(PasscheckInternalError, match="reference evaluator"):
        verify_equivalent(original, wrong, FEEDS, "bad", runner=_refusing_mutants(original))
