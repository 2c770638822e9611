"""An annotation-violated finding where onnx's reference evaluator computes the annotated value: the run deviates
from the operator's definition, not the pass (session 26). Resize-18 with ``scales`` gives each output dim as
``floor(input_dim * scale)`` (Operators.md, Resize); ``float32(5/3) * 3`` is 4.9999999, so the dim is 4, which
onnx 1.22+ shape inference states and ``onnx.reference`` computes, while onnxruntime's CPU kernel rounds the
float32 product to 5 (docs/found.md row 175)."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.oracles import annotations
from passcheck.oracles._context import FormRun
from passcheck.passes import PassOutcome
from passcheck.runtime.observe import observe
from passcheck.runtime.session import RunResult
from passcheck.triage.candidates import tool_of

X = {"x": np.random.default_rng(0).standard_normal((2, 2, 3, 3)).astype(np.float32)}


def _resize(out_dims) -> onnx.ModelProto:
    """``y = Resize<nearest, axes=[2, 3]>(x, "", [5/3, 5/3])``, ``x: float[N, 2, 3, 3]``, ``y`` annotated
    ``out_dims``."""
    s = np.float32(5 / 3)
    g = helper.make_graph(
        [helper.make_node("Resize", ["x", "", "sc"], ["y"], mode="nearest", axes=[2, 3])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 2, 3, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_dims)],
        [numpy_helper.from_array(np.array([s, s], np.float32), "sc")],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def _judged(output: onnx.ModelProto, runs) -> list:
    form = _resize([None] * 4)
    outcome = PassOutcome("onnx:infer-shapes", "changed", output)
    return annotations.check(FormRun("c", "f", "onnx:infer-shapes", form, outcome, [X], [], runs))


def test_an_annotation_the_reference_computes_blames_the_runtime_not_the_pass():
    """The runtime's value has dims 5 (as onnxruntime 1.32's kernel gives); the annotation 4 is the spec's and the
    reference evaluator's: the finding stays (a defect of the runtime) but names the runtime, and triage files it
    under onnxruntime. Without the tie-break it was filed under onnx, the pass that wrote a right annotation."""
    out = _resize(["N", 2, 4, 4])
    ran = [RunResult({}, {"x": X["x"], "y": np.zeros((2, 2, 5, 5), np.float32)})]
    found = _judged(out, ran)
    assert len(found) == 2, found  # axes 2 and 3
    for f in found:
        assert f.kind == "annotation-violated" and f.details.get("blame") == "runtime", f
        assert "the runtime deviates" in f.message and tool_of(f) == "onnxruntime", (f.message, tool_of(f))


def test_a_wrong_annotation_is_still_the_passs():
    """Planted: the pass annotates dims 7; the run and the reference evaluator both give 4 (a run that agrees with
    the reference) or the run gives 5: either way the annotation is wrong and the pass is blamed."""
    out = _resize(["N", 2, 7, 7])
    for dims in (4, 5):
        ran = [RunResult({}, {"x": X["x"], "y": np.zeros((2, 2, dims, dims), np.float32)})]
        found = _judged(out, ran)
        assert len(found) == 2, found
        assert all("blame" not in f.details and tool_of(f) == "onnx" for f in found), (dims, found)


def test_with_onnxruntimes_own_run():
    """The same with a real onnxruntime run of onnx's own shape inference output (skipped once onnxruntime's
    Resize gives the spec's dims: then there is no violation to judge)."""
    out = onnx.shape_inference.infer_shapes(_resize([None] * 4), strict_mode=True)
    dims = [d.dim_value for d in out.graph.output[0].type.tensor_type.shape.dim]
    observed, unobservable = observe(out, X, "ort")
    if dims[2] != 4 or observed["y"].shape[2] == 4:
        pytest.skip(f"onnx states {dims}, onnxruntime runs {observed['y'].shape}: no disagreement here")
    found = _judged(out, [RunResult({}, observed, None, unobservable)])
    assert found and all(f.details.get("blame") == "runtime" and tool_of(f) == "onnxruntime" for f in found), found


def test_index_names_the_op_computing_the_violated_value_and_counts_distinct_findings():
    """triage's By root cause read ``ops -`` for an annotation candidate (its signature names no op type): it names
    the op computing the value (``details["producer"]``); and its ``seen`` column counts distinct findings, the
    occurrences (one per axis here) in parentheses (it said "2 findings" for 1)."""
    from passcheck.records import CellResult
    from passcheck.triage.bundle import Outcome
    from passcheck.triage.candidates import group
    from passcheck.triage.index import index_md

    ran = [RunResult({}, {"x": X["x"], "y": np.zeros((2, 2, 5, 5), np.float32)})]
    form = _resize([None] * 4)
    run = FormRun(
        "c", "f", "onnx:infer-shapes", form, PassOutcome("p", "changed", _resize(["N", 2, 7, 7])), [X], [], ran
    )
    found = annotations.check(run)
    assert {f.details.get("producer") for f in found} == {"Resize"}, found
    (candidate,) = group([CellResult("c", "f", "onnx:infer-shapes", "changed", findings=found)])
    assert candidate.seen == "1 findings (2 occurrences), 1 cases", candidate.seen
    md = index_md(
        [{"n": 1, "candidate": candidate, "outcome": Outcome("reproduced", ""), "upstream": None}], [], {}, None
    )
    assert "| annotation-violated | ops Resize | #1 |" in md, md
