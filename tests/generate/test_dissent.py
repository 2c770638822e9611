"""The generator's gate when onnxruntime (unoptimized) and onnx's reference evaluator disagree
(passcheck/generate/dissent.py): a pair is kept only on a majority of opinions (both runtimes' runs of
every form, the spec's "these forms compute the same", a third runtime), and every outvoted runtime or
unsettled dispute is recorded, with the pair or with its drop. Real onnxruntime sessions and the
installed reference evaluator throughout; the evaluator's two known departures are the subjects:
Loop with ``cond`` left out runs no iteration, SequenceInsert at position ``n`` inserts at the front
(docs/found.md rows 270, 272)."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.defs
import onnx.helper as oh
import pytest

from passcheck.engine import feeds_for
from passcheck.generate import model as gen_model
from passcheck.generate import recipe
from passcheck.generate.dissent import REFERENCE, UNRESOLVED
from passcheck.generate.gate import gate
from passcheck.generate.omitted import omitted
from passcheck.generate.pair import Ctx
from passcheck.runtime.reference import run_reference
from passcheck.runtime.session import run_ort


def _loop_cond_pair(version: int = 16):
    node = recipe.build_node(onnx.defs.get_schema("Loop", version), version)
    (pair,) = [p for p in omitted(node, Ctx(version, None)) if p.detail == "cond"]
    forms = {f: gen_model.to_model(n, mode) for f, (n, mode, _doc) in pair.forms.items()}
    feeds = feeds_for(forms["common"], f"generated/loop-{version}.omitted.cond", [{}, {}])
    return pair, forms, feeds


def test_the_premise_the_evaluator_alone_runs_no_iteration_without_cond():
    # the test below is about this disagreement; if a later onnx fixes its Loop, it has no subject
    _, forms, feeds = _loop_cond_pair()
    ort_common, ort_omitted = (run_ort(forms[f], dict(feeds[0])).outputs for f in ("common", "omitted"))
    ref_common, ref_omitted = (run_reference(forms[f], dict(feeds[0])).outputs for f in ("common", "omitted"))
    (name,) = ort_common
    np.testing.assert_allclose(ort_omitted[name], ort_common[name])
    np.testing.assert_allclose(ref_common[name], ort_common[name])
    assert not np.allclose(ref_omitted[name], ort_omitted[name])


@pytest.mark.parametrize("version", [11, 16])
def test_loop_without_cond_is_kept_over_the_reference_evaluators_dissent(version):
    # Operators.md Loop: with M given, cond left out is a for loop of M iterations, as cond true with
    # a body returning its cond; onnxruntime computes both alike and as the evaluator on common
    pair, forms, feeds = _loop_cond_pair(version)
    assert pair.alike, "the domain table states cond's omission as true"
    v = gate(forms, feeds, run_ort)
    assert v.ok, (v.reason, v.detail)
    assert {(d.tool, d.form) for d in v.dissent} == {(REFERENCE, "omitted"), (REFERENCE, "omitted-symbolic")}
    assert all("spec says the forms compute the same" in d.why for d in v.dissent)


def test_without_the_spec_or_a_third_runtime_the_pair_is_dropped_and_the_dispute_kept():
    # an omission whose meaning no table states: onnxruntime's word against the evaluator's is no verdict
    _, forms, feeds = _loop_cond_pair()
    v = gate(forms, feeds, run_ort, alike=False)
    assert not v.ok and v.category == "tool"
    assert v.reason == "the reference evaluator computes the uncommon form differently"
    assert {d.tool for d in v.dissent} == {UNRESOLVED}
    assert "no third runtime was asked" in v.detail


def test_a_third_runtime_siding_with_onnxruntime_keeps_the_pair():
    _, forms, feeds = _loop_cond_pair()
    asked = []

    def third(model, feeds_):
        asked.append(model)
        return run_ort(model, feeds_)

    v = gate(forms, feeds, run_ort, alike=False, third=third)
    assert v.ok, (v.reason, v.detail)
    assert {d.tool for d in v.dissent} == {REFERENCE}
    assert all("a third runtime agrees with onnxruntime" in d.why for d in v.dissent)
    assert asked, "the third runtime was never run"


def _sequence_insert_at_length(symbolic: bool) -> onnx.ModelProto:
    """``ConcatFromSequence(SequenceInsert(SequenceConstruct(a, b, c), d, 3))``: position n, the back
    (Operators.md SequenceInsert-11: position in [-n, n])."""
    dim = "n" if symbolic else 1
    names = ["a", "b", "c", "d"]
    g = oh.make_graph(
        [
            oh.make_node("SequenceConstruct", names[:3], ["s"]),
            oh.make_node("SequenceInsert", ["s", "d", "pos"], ["t"]),
            oh.make_node("ConcatFromSequence", ["t"], ["y"], axis=0),
        ],
        "g",
        [oh.make_tensor_value_info(n, onnx.TensorProto.FLOAT, [dim]) for n in names],
        [oh.make_tensor_value_info("y", onnx.TensorProto.FLOAT, [None])],
        [oh.make_tensor("pos", onnx.TensorProto.INT64, [], [3])],
    )
    return oh.make_model(g, opset_imports=[oh.make_opsetid("", 13)], ir_version=8)


def test_runtimes_differing_on_common_are_a_recorded_dispute_or_a_third_runtimes_call():
    forms = {"common": _sequence_insert_at_length(False), "symbolic": _sequence_insert_at_length(True)}
    feeds = [{n: np.array([k + 1.0], np.float32) for k, n in enumerate("abcd")}]
    assert run_ort(forms["common"], dict(feeds[0])).outputs["y"].tolist() == [1, 2, 3, 4]
    # no third runtime: dropped as before, but the dispute is data, not a blame
    v = gate(forms, feeds, run_ort)
    assert not v.ok and v.reason == "onnxruntime differs from the reference evaluator on common", v
    assert [(d.tool, d.form) for d in v.dissent] == [(UNRESOLVED, "every form")]
    # a third runtime agreeing with onnxruntime outvotes the evaluator on every form: kept
    v = gate(forms, feeds, run_ort, third=run_ort)
    assert v.ok, (v.reason, v.detail)
    assert [(d.tool, d.form) for d in v.dissent] == [(REFERENCE, "every form")]
    # and one agreeing with the evaluator outvotes onnxruntime: dropped, onnxruntime named
    v = gate(forms, feeds, run_ort, third=run_reference)
    assert not v.ok and [d.tool for d in v.dissent] == ["onnxruntime"], v


def test_the_generated_set_keeps_the_loop_omissions_and_counts_the_dissent(tmp_path, monkeypatch):
    from passcheck.generate import index

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path))
    doc = index(ops=["Loop"], quiet=True)
    kept = {c["id"] for c in doc["cases"] if ".omitted.cond" in c["id"]}
    assert "generated/loop-16.omitted.cond" in kept and len(kept) >= 8, kept
    dropped = {k for per_op in doc["stats"]["dropped"].values() for k in per_op}
    assert "tool|the reference evaluator computes the uncommon form differently" not in dropped
    counted = doc["stats"]["dissent"]["Loop"]
    assert counted == {"reference evaluator|kept": 2 * len(kept)}, counted
    entry = next(c for c in doc["cases"] if c["id"] == "generated/loop-16.omitted.cond")
    assert {d["tool"] for d in entry["dissent"]} == {REFERENCE}
    assert "the reference evaluator outvoted" in entry["doc"]


def test_onnxruntime_in_another_interpreter_is_a_third_runtime_that_settles_a_dispute_on_common():
    # a real child process running onnxruntime alone (here the test's own interpreter; a pinned
    # environment's python in use): it computes position n as the back, as onnxruntime does here
    import sys

    from passcheck.generate.third import OtherOrt

    forms = {"common": _sequence_insert_at_length(False), "symbolic": _sequence_insert_at_length(True)}
    feeds = [{n: np.array([k + 1.0], np.float32) for k, n in enumerate("abcd")}]
    v = gate(forms, feeds, run_ort, third=OtherOrt(sys.executable))
    assert v.ok, (v.reason, v.detail)
    assert [(d.tool, d.form) for d in v.dissent] == [(REFERENCE, "every form")]
    # a third runtime that cannot run is no vote: the dispute stays unresolved, with why
    v = gate(forms, feeds, run_ort, third=OtherOrt("/nonexistent/python"))
    assert not v.ok and [d.tool for d in v.dissent] == [UNRESOLVED]
    assert "not started" in v.detail


def test_the_third_runtime_named_by_the_environment_reaches_the_generated_set(tmp_path, monkeypatch):
    import sys

    doc = _generated_with_third(tmp_path, monkeypatch, "Softmax")
    assert doc["third"].startswith("onnxruntime ") and sys.executable in doc["third"]
    # Softmax-1's axis written with no value: onnxruntime and the evaluator differ on every form (found
    # dropped unresolved without a third runtime); this one sides with onnxruntime, so the pair is kept
    assert "generated/softmax-1.attr-no-value.axis" in {c["id"] for c in doc["cases"]}
    assert doc["stats"]["dissent"]["Softmax"].get("reference evaluator|kept"), doc["stats"]["dissent"]
    first = doc["stats"]["dissent_examples"]["Softmax|reference evaluator|kept"]
    assert "a third runtime agrees with onnxruntime" in first, first


def test_annotations_siding_with_the_outvoted_evaluator_make_a_dispute_not_a_passcheck_bug(tmp_path, monkeypatch):
    # NonZero-9 of a rank-0 input: onnx shape inference and the evaluator give Y [0, n] (rank(X) rows,
    # Operators.md NonZero), onnxruntime [1, 1]; a third onnxruntime sides with onnxruntime, but the form's
    # annotations (from inference) hold on the evaluator's run only: a dispute, never passcheck's fault
    doc = _generated_with_third(tmp_path, monkeypatch, "NonZero")
    dropped = doc["stats"]["dropped"]["NonZero"]
    assert not any(k.startswith("passcheck|") for k in dropped), dropped
    key = "tool|onnxruntime's run breaks annotations the outvoted reference evaluator's run keeps"
    assert dropped.get(key), dropped


def _generated_with_third(tmp_path, monkeypatch, op: str) -> dict:
    """The generated set of ``op`` in a fresh cache, this interpreter's onnxruntime as the third runtime."""
    import sys

    from passcheck import generate

    monkeypatch.setenv("PASSCHECK_CACHE", str(tmp_path))
    monkeypatch.setenv(generate.THIRD_ENV, sys.executable)
    generate.generator_hash.cache_clear()
    try:
        return generate.index(ops=[op], quiet=True)
    finally:
        generate.generator_hash.cache_clear()
