"""Default-fed neighbours (:mod:`passcheck.hunt.vary_defaults`): an overridable default (a graph input with an
initializer of the same name, IR.md §Graphs) fed another value of its dtype and shape, the dims computed from it
unstated. Judged with real onnx checks, real passes and onnxruntime runs, and against a planted pass that makes every
default a constant (``tests/hunt/planted_defaults.py``)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_defaults, vary_probe
from passcheck.hunt.probe import Setting

sys.path.insert(0, str(Path(__file__).parent))
import planted_defaults as P  # noqa: E402 - the planted pass, registered on import

FORM = "vary:default-fed@s"
SUBJECT = "default-test/reshape"


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def base(overridable: bool = True):
    """``y = Relu(Reshape(x, s))``, ``x: float[2, 3, 4]``, ``s`` an initializer ``[4, 6]`` (a graph input too when
    ``overridable``), ``y: float[4, 6]``; opset 14, IR 8."""
    vi = helper.make_tensor_value_info
    nodes = [helper.make_node("Reshape", ["x", "s"], ["r"], name="rs"), helper.make_node("Relu", ["r"], ["y"])]
    inputs = [vi("x", TensorProto.FLOAT, [2, 3, 4])] + ([vi("s", TensorProto.INT64, [2])] if overridable else [])
    s = numpy_helper.from_array(np.array([4, 6], np.int64), "s")
    graph = helper.make_graph(nodes, "g", inputs, [vi("y", TensorProto.FLOAT, [4, 6])], [s])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 14)], ir_version=8)


def _t(values, dtype):
    return numpy_helper.from_array(np.array(values, dtype), "t")


def test_other_values_keep_dtype_and_shape_and_what_readers_ask_of_the_elements():
    cases = [
        (_t([4, 6], np.int64), [6, 4]),  # reversed: a Reshape target keeps its element count
        (_t([[0, 2], [1, 3]], np.int64), [[3, 1], [2, 0]]),  # an axes set stays in range, duplicate-free
        (_t(5, np.int64), 4),  # a count: one less
        (_t([1], np.int64), [0]),
        (_t([0, 0], np.int32), [1, 1]),
        (_t([-1], np.int64), [0]),  # a negative axis stays in range
        (_t([0.5, 0.5], np.float32), [1.0, 1.0]),
        (_t(0.0, np.float32), 1.0),
        (_t([-3e38], np.float32), [np.float32(-1.5e38)]),  # × 2 would overflow
        (_t([True, False], np.bool_), [False, True]),
    ]
    for tensor, want in cases:
        got, why = vary_defaults.other_value(tensor)
        arr = numpy_helper.to_array(tensor)
        assert why == "" and got.dtype == arr.dtype and got.shape == arr.shape, (tensor, got)
        assert got.tolist() == want, (arr, got)
    assert vary_defaults.other_value(_t(np.zeros((0, 2)), np.float32)) == (None, "empty: no other value of its shape")


def test_sites_are_the_read_overridable_defaults_and_the_rest_are_counted():
    model = base()
    unread = numpy_helper.from_array(np.ones(2, np.float32), "u")
    model.graph.initializer.append(unread)
    model.graph.input.append(helper.make_tensor_value_info("u", TensorProto.FLOAT, [2]))
    assert list(vary_defaults.candidates(model)) == [("default-fed", "s")]
    assert vary_defaults.skipped(model) == {"u": "no node reads it"}
    assert FORM in variation.neighbours(base(), random.Random(0))
    assert variation.build(base(), "vary:default-fed@x") is None  # a fed input is no default


def test_a_model_before_ir_4_is_raised_to_it_so_that_onnxruntime_takes_the_feed():
    from passcheck.runtime.session import run_ort

    old = base()
    old.ir_version = 3  # every initializer listed as an input: onnxruntime overrides none
    feeds = {"x": np.zeros((2, 3, 4), np.float32), "s": np.array([6, 4], np.int64)}
    assert run_ort(old, feeds).outputs["y"].shape == (4, 6)  # the feed is not taken
    out, _ = variation.build(old, FORM)
    assert out.ir_version == 4 and old.ir_version == 3
    assert run_ort(out, feeds).outputs["y"].shape == (6, 4)


def test_a_constant_is_made_overridable_as_initializer_as_input_does():
    from passcheck.mutations.graph_inputs import as_input

    plain = base(overridable=False)
    assert list(vary_defaults.candidates(plain)) == [("default-fed", "s")]
    out, _ = variation.build(plain, FORM)
    want = base(overridable=False)
    as_input(want)
    assert [v for v in out.graph.input] == [v for v in want.graph.input]
    assert [v.name for v in plain.graph.input] == ["x"]  # the base is never modified


def test_the_neighbour_leaves_the_dims_below_the_default_unstated_and_runs_on_the_fed_value():
    from passcheck.runtime.session import run_ort

    out, labels = variation.build(base(), FORM)
    assert labels == ["s"]
    (y,) = out.graph.output
    assert y.type.tensor_type.elem_type == TensorProto.FLOAT and len(y.type.tensor_type.shape.dim) == 2
    assert not any(d.HasField("dim_value") or d.HasField("dim_param") for d in y.type.tensor_type.shape.dim)
    assert base().graph.output[0].type.tensor_type.shape.dim[0].dim_value == 4  # the base is never modified
    onnx.checker.check_model(out, full_check=True)
    (feeds, _) = vary_probe.setting_for(Setting(SUBJECT), FORM, out).feed_list(out)
    assert feeds["s"].tolist() == [6, 4] and feeds["x"].shape == (2, 3, 4)
    r = run_ort(out, feeds)  # onnxruntime takes the overridable initializer from the feed
    assert r.error is None and r.outputs["y"].shape == (6, 4), r


def test_the_neighbour_passes_the_gate(ex):
    out = variation.build(base(), FORM)[0]
    setting = vary_probe.setting_for(Setting(SUBJECT), FORM, out)
    assert vary_probe.invalid(setting, base(), out, ex, FORM) is None


def test_a_pass_that_folds_the_default_is_found_on_the_fed_neighbour_only(ex):
    from passcheck.engine import Subject, evaluate

    cells = evaluate(Subject(id=SUBJECT, forms={"common": base()}, bindings=[{}]), [P.PASS_ID], executor=ex)
    assert not [f for c in cells for f in c.findings], cells  # the default feed: folding it is right
    out = vary_probe.judge(Setting(SUBJECT), base(), FORM, P.PASS_ID, ex)
    assert out.status == "done", out
    assert "numeric" in {f.oracle for f in out.findings}, out.findings


@pytest.mark.parametrize("pass_id", ["ort:basic", "planted:fold-defaults"])
def test_no_pass_is_blamed_on_the_plain_form_with_a_constant(ex, pass_id):
    from passcheck.engine import Subject, evaluate

    subject = Subject(id=SUBJECT, forms={"common": base(overridable=False)}, bindings=[{}])
    cells = evaluate(subject, [pass_id], executor=ex)
    assert not [f for c in cells for f in c.findings], cells


def test_the_planted_pass_is_found_from_the_plain_form_too(ex):
    out = vary_probe.judge(Setting(SUBJECT), base(overridable=False), FORM, P.PASS_ID, ex)
    assert out.status == "done" and "numeric" in {f.oracle for f in out.findings}, out


def test_onnxruntime_keeps_the_default_overridable_and_onnx_inference_states_it(ex):
    kept = vary_probe.judge(Setting(SUBJECT), base(), FORM, "ort:basic", ex)
    assert kept.status == "done" and not kept.findings, kept  # ConstantFolding skips a non-constant initializer
    inferred = vary_probe.judge(Setting(SUBJECT), base(), FORM, "onnx:infer-shapes", ex)
    assert inferred.status == "done", inferred
    hits = {(f.oracle, f.kind) for f in inferred.findings}
    assert ("annotations", "annotation-violated") in hits, inferred.findings  # docs/found.md row 450


def test_a_saved_case_feeds_its_default_as_the_neighbour_did():
    from passcheck.hunt.vary_defaults import feed_fn

    out = variation.build(base(), FORM)[0]
    kw = vary_probe.saved(Setting(SUBJECT), out, FORM)
    assert kw["feeds"] == (
        "from passcheck.hunt.vary_defaults import feed_fn",
        f"feed_fn(build_uncommon, 's', {SUBJECT!r})",
    )
    feeds = feed_fn(lambda: out, "s", SUBJECT)({}, 0)
    assert feeds["s"].tolist() == [6, 4] and feeds["x"].shape == (2, 3, 4)
    assert vary_probe.saved(Setting(SUBJECT), out, "vary:value-zero@s") == {}
