"""Behaviours a survivor of ``bench/mutation_score.py`` showed unguarded, each pinned with the real tools."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import parser

from passcheck.oracles._context import FormRun
from passcheck.oracles._contract import INPUT, Cells
from passcheck.oracles.runtime import ORACLE as RUNTIME
from passcheck.passes import PassOutcome
from passcheck.runtime.session import run_ort


def test_a_form_onnxruntime_cannot_run_says_real_feeds_may_be_needed_unless_they_were_given():
    """Mutant killed: ``Cells.feeds_given`` defaulting to True (a caller that does not say where the
    feeds came from would hide the hint that synthesized feeds may be what fails)."""
    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[6] x, int64[2] shape) => (float[?, ?] y) { y = Reshape (x, shape) }""")
    feeds = {"x": np.ones(6, np.float32), "shape": np.array([4, 4], np.int64)}  # 16 elements from 6: cannot run
    baseline = run_ort(model, feeds)
    assert baseline.error
    run = FormRun("c", "common", "input", model, PassOutcome("input", "unchanged", model), [feeds], [baseline], [])
    (synthesized,) = RUNTIME.check(run, Cells([run], INPUT))
    assert synthesized.kind == "rejected" and "on synthesized feeds" in synthesized.message
    (given,) = RUNTIME.check(run, Cells([run], INPUT, feeds_given=True))
    assert "synthesized" not in given.message and "onnxruntime cannot run this form" in given.message


def test_an_axis_one_past_the_last_is_outside_the_documented_range_unless_the_end_is_inclusive():
    """Mutant killed: ``r - 1`` → ``r // 1`` in ``spec_rules.axes_in_range``, which let ``axis = rank`` through
    (Softmax documents ``[-r, r-1]``; Flatten ``[-r, r]``)."""
    from passcheck.oracles.conformance import evaluate

    def violations(op: str, axis: int) -> list[tuple[str, str]]:
        model = parser.parse_model(f"""<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[?, ?] y) {{ y = {op} <axis = {axis}> (x) }}""")
        return [(v.rule, v.message) for v in evaluate(model).violations]

    assert violations("Softmax", 1) == [] and violations("Softmax", -2) == []
    assert violations("Softmax", 2) == [("axis-Softmax", "axis = 2: [2] outside [-2, 1] (rank 2)")]
    assert violations("Flatten", 2) == []
    assert violations("Flatten", 3) == [("flatten-axis", "axis = 3: [3] outside [-2, 2] (rank 2)")]


def test_a_symbol_only_asked_about_is_no_conflict():
    """Mutant killed: ``len(sizes) > 1`` → ``!= 1`` in ``BindingMap.conflicts``: asking the sizes of a
    symbol no value carries (an empty list in the map) made it a conflict with no occurrence."""
    from passcheck.oracles.binding import BindingMap, Occurrence

    b = BindingMap()
    b.add(Occurrence("N", "x", 0, 3, "output"))
    b.add(Occurrence("N", "y", 0, 3, "output"))
    assert b.sizes("M") == set() and b.sizes("N") == {3}
    assert b.conflicts() == {}
    b.add(Occurrence("N", "z", 1, 4, "output"))
    assert list(b.conflicts()) == ["N"] and len(b.conflicts()["N"]) == 3


def test_a_sequence_annotation_is_observed_whole_and_a_tensor_annotation_by_shape_only():
    """Mutant killed: ``!=`` → ``is`` in the annotations oracle's ``_asked``, which left every annotated
    sequence (optional, map) value out of what the run observes, so its annotation went unchecked."""
    from passcheck.oracles.annotations import ORACLE as ANNOTATIONS

    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[2] x) => (float[2] y) {
  zero = Constant <value_int = 0> ()
  h = Relu (x)
  s = SequenceConstruct (h, x)
  y = SequenceAt (s, zero)
}""")
    model.graph.value_info.extend(
        [
            onnx.helper.make_tensor_value_info("h", onnx.TensorProto.FLOAT, [2]),
            onnx.helper.make_tensor_sequence_value_info("s", onnx.TensorProto.FLOAT, [2]),
        ]
    )
    assert ANNOTATIONS.observes(model) == ["s"]
    assert sorted(ANNOTATIONS.observes_shapes(model)) == ["h", "x", "y"]


def test_an_einsum_term_must_have_exactly_the_rank_of_its_input_without_an_ellipsis():
    """Mutant killed: ``n != r`` → ``n < r`` in ``spec_rules.einsum_equation``, which let a term with more
    letters than its input's rank through."""
    from passcheck.oracles.conformance import evaluate

    def violations(equation: str) -> list[str]:
        model = parser.parse_model(f"""<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[?] y) {{ y = Einsum <equation = "{equation}"> (x) }}""")
        return [v.message for v in evaluate(model).violations if v.rule.startswith("einsum")]

    assert violations("ij->i") == [] and violations("...j->j") == []
    assert violations("ijk->i") == ["equation 'ijk->i': term 'ijk' does not match the rank 2 of input 0"]
    assert violations("i->i") == ["equation 'i->i': term 'i' does not match the rank 2 of input 0"]


def _violations(text: str, prefix: str) -> list[str]:
    from passcheck.oracles.conformance import evaluate

    return [v.message for v in evaluate(parser.parse_model(text)).violations if v.rule.startswith(prefix)]


def test_an_einsum_ellipsis_may_stand_for_no_dimension():
    """Mutant killed: ``n > r`` → ``n >= r`` in ``spec_rules.einsum_equation``, which flagged a term whose
    letters alone fill the input's rank (the ellipsis then broadcasts over zero dims, as onnxruntime runs it)."""
    text = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[?, ?] y) {{ y = Einsum <equation = "{}"> (x) }}"""
    model = parser.parse_model(text.format("...ij->...ji"))
    got = run_ort(model, {"x": np.arange(6, dtype=np.float32).reshape(2, 3)})
    assert got.error is None and got.outputs["y"].shape == (3, 2)
    assert _violations(text.format("...ij->...ji"), "einsum") == []
    assert _violations(text.format("...ijk->...i"), "einsum") == [
        "equation '...ijk->...i': term '...ijk' does not match the rank 2 of input 0"
    ]


def test_a_two_dimensional_conv_checks_its_group_against_the_channel_counts():
    """Mutant killed: ``len(x) < 2`` → ``len(x) != 2`` in ``spec_rules.conv_group``, which left every Conv
    whose X has a spatial axis undecided. Conv: X.shape[1] == W.shape[1] * group, M a multiple of group."""
    text = """<ir_version: 8, opset_import: ["" : 18]>
g (float[1, {}, 5, 5] x, float[4, 2, 3, 3] w) => (float[?, ?, ?, ?] y) {{ y = Conv <group = 2> (x, w) }}"""
    assert _violations(text.format(4), "conv-group") == []
    assert _violations(text.format(3), "conv-group") == [
        "group = 2 with X channels 3 and W [4, 2]: X.shape[1] must equal W.shape[1] * group and M a multiple of group"
    ]


def test_a_conv_whose_output_channel_count_is_symbolic_leaves_its_group_undecided():
    """Mutant killed: ``w[1] is None or w[0] is None`` → ``and`` in ``spec_rules.conv_group``: with M
    (W.shape[0]) symbolic and X.shape[1] == W.shape[1] * group, ``M % group`` cannot be decided."""
    from passcheck.oracles.conformance import evaluate

    text = """<ir_version: 8, opset_import: ["" : 18]>
g (float[1, 4, 5, 5] x, float[M, 2, 3, 3] w) => (float[?, ?, ?, ?] y) { y = Conv <group = 2> (x, w) }"""
    ev = evaluate(parser.parse_model(text))
    assert [v for v in ev.violations if v.rule.startswith("conv-group")] == []
    assert [why for rule, why in ev.undecided.items() if rule.startswith("conv-group")] == [
        "the channel counts of X and W are not static"
    ]


def test_a_reshape_target_value_below_minus_one_is_flagged():
    """Mutant killed: ``v < -1`` → ``v < -2`` in ``spec_rules.reshape_shape``: Reshape's shape holds
    dims >= 0 and at most one -1 (Operators.md, Reshape), so -2 is out of range."""
    text = """<ir_version: 8, opset_import: ["" : 18]>
g (float[6] x) => (float[?, ?] y) {{ s = Constant <value = int64[2] {{{}, 3}}> ()  y = Reshape (x, s) }}"""
    assert _violations(text.format(-1), "reshape-shape") == []
    assert _violations(text.format(-2), "reshape-shape") == ["shape = [-2, 3] has a value below -1"]


def test_unsqueeze_axes_naming_one_axis_twice_are_flagged():
    """Mutant killed: ``if unique and`` → ``if not unique and`` in ``spec_rules.axes_in_range``: Unsqueeze's
    axes hold no duplicate, counted modulo the expanded rank (Operators.md: an error if it contains any)."""
    text = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[?, ?, ?, ?] y) {{ a = Constant <value = int64[2] {{{}}}> ()  y = Unsqueeze (x, a) }}"""
    assert _violations(text.format("0, 3"), "unsqueeze-axes") == []
    assert _violations(text.format("0, -4"), "unsqueeze-axes") == ["axes = [0, -4] names an axis twice (rank 4)"]


def test_a_conv_whose_input_channel_count_is_symbolic_leaves_its_group_undecided():
    """Mutant killed: ``x[1] is None or w[1] is None`` → ``and`` in ``spec_rules.conv_group``: X's channel
    count symbolic, the group rule cannot be decided (the mutant compared None with W's channels)."""
    from passcheck.oracles.conformance import evaluate

    text = """<ir_version: 8, opset_import: ["" : 18]>
g (float[1, C, 5, 5] x, float[4, 2, 3, 3] w) => (float[?, ?, ?, ?] y) { y = Conv <group = 2> (x, w) }"""
    ev = evaluate(parser.parse_model(text))
    assert [v for v in ev.violations if v.rule.startswith("conv-group")] == []
    assert [why for rule, why in ev.undecided.items() if rule.startswith("conv-group")] == [
        "the channel counts of X and W are not static"
    ]


def test_split_sizes_are_an_input_from_opset_13_and_an_attribute_before():
    """Mutant killed: ``s.version >= 13`` → ``>`` in ``spec_rules.split_sizes``, which read Split-13's sizes
    from the attribute it no longer has (Split-13 moved ``split`` to input 1), so they went unchecked."""
    as_input = """<ir_version: 8, opset_import: ["" : 13]>
g (float[6] x) => (float[?] a, float[?] b) {{
  s = Constant <value = int64[2] {{{}}}> ()
  a, b = Split <axis = 0> (x, s)
}}"""
    as_attribute = """<ir_version: 8, opset_import: ["" : 11]>
g (float[6] x) => (float[?] a, float[?] b) {{ a, b = Split <axis = 0, split = [{}]> (x) }}"""
    for text in (as_input, as_attribute):
        assert _violations(text.format("2, 4"), "split-sizes") == []
        assert _violations(text.format("2, 3"), "split-sizes") == ["split = [2, 3] sums to 5, not to dim 0 (6)"]


def test_split_sizes_are_checked_at_the_most_negative_axis_too():
    """Mutant killed: ``-len(d) <= axis`` → ``<`` in ``spec_rules.split_sizes``: axis accepts
    [-r, r-1] (Operators.md, Split), so axis = -rank names dim 0 and its sizes are checked."""
    text = """<ir_version: 8, opset_import: ["" : 18]>
g (float[6] x) => (float[?] a, float[?] b) {{
  s = Constant <value = int64[2] {{{}}}> ()
  a, b = Split <axis = -1> (x, s)
}}"""
    assert _violations(text.format("2, 4"), "split-sizes") == []
    assert _violations(text.format("2, 3"), "split-sizes") == ["split = [2, 3] sums to 5, not to dim -1 (6)"]


def test_pad_with_more_pads_than_two_per_axis_is_flagged():
    """Mutant killed: ``len(pads) == 2 * n`` → ``>=`` in ``spec_rules.pad_length``: Pad's pads hold
    exactly a begin and an end per padded axis (Operators.md, Pad), not more."""
    text = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3] x) => (float[?, ?] y) {{ p = Constant <value = int64[{}] {{{}}}> ()  y = Pad (x, p) }}"""
    assert _violations(text.format(4, "0, 1, 0, 1"), "pad-length") == []
    assert _violations(text.format(6, "0, 1, 0, 1, 0, 1"), "pad-length") == [
        "pads has 6 values; 4 (2 x 2 axes) are documented"
    ]


def test_a_transpose_perm_shorter_than_the_rank_is_flagged():
    """Mutant killed: ``len(perm) == r`` → ``<=`` in ``spec_rules.transpose_perm``: perm is a permutation
    of all r axes (Operators.md, Transpose), so two values for a rank-3 input are too few."""
    text = """<ir_version: 8, opset_import: ["" : 18]>
g (float[2, 3, 4] x) => (float[?, ?, ?] y) {{ y = Transpose <perm = [{}]> (x) }}"""
    assert _violations(text.format("2, 0, 1"), "transpose-perm") == []
    assert _violations(text.format("1, 0"), "transpose-perm") == ["perm has 2 values; the input has rank 3"]


def test_a_negative_window_step_or_size_is_not_positive():
    """Mutant killed: ``v > 0`` → ``v != 0`` in ``spec_table``'s strides rule (and its dilations and
    kernel_shape twins), which let a negative step through: the spec asks for positive integers."""
    text = """<ir_version: 8, opset_import: ["" : 18]>
g (float[1, 1, 5, 5] x, float[1, 1, 3, 3] w) => (float[?, ?, ?, ?] y) {{ y = Conv <{}> (x, w) }}"""
    for attr in ("strides", "dilations", "kernel_shape"):
        ok = "[3, 3]" if attr == "kernel_shape" else "[1, 1]"
        assert _violations(text.format(f"{attr} = {ok}"), "window-") == []
        assert _violations(text.format(f"{attr} = [-1, 3]"), "window-") == [f"{attr} = [-1, 3]: [-1] are not positive"]


def test_a_dropout_ratio_of_one_is_outside_its_range():
    """Mutant killed: ``v < 1`` → ``v <= 1`` in ``spec_rules.dropout_ratio``. Dropout-12 on: the ratio lies in
    [0, 1) (the training output scales by 1 / (1 - ratio))."""
    text = """<ir_version: 8, opset_import: ["" : 13]>
g (float[2, 3] x) => (float[?, ?] y) {{
  r = Constant <value = float {{{}}}> ()
  y = Dropout (x, r)
}}"""
    assert _violations(text.format("0.0"), "dropout") == [] and _violations(text.format("0.999"), "dropout") == []
    assert _violations(text.format("1.0"), "dropout") == ["ratio = [1.0] is outside [0, 1)"]
    assert _violations(text.format("1.5"), "dropout") == ["ratio = [1.5] is outside [0, 1)"]  # v < 1 → v != 1


def _one_node(node: onnx.NodeProto) -> onnx.ModelProto:
    from onnx import helper

    x, z = (helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, [2]) for n in ("x", "z"))
    g = helper.make_graph([node], "g", [x, z], [helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, None)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])


def _rules(model: onnx.ModelProto, prefix: str) -> list[str]:
    from passcheck.oracles.conformance import evaluate

    return [v.message for v in evaluate(model).violations if v.rule.startswith(prefix)]


def test_a_node_must_fill_every_input_up_to_its_schemas_last_single_formal():
    """Mutant killed: ``n = i + 1`` → ``i - 1`` in ``conformance._required``, which let a node leave out
    required inputs (Add has two Single formals; Clip's min and max are optional)."""
    from onnx import helper

    assert _rules(_one_node(helper.make_node("Add", ["x"], ["y"])), "schema-arity") == [
        "1 inputs; the schema allows 2 to 2"
    ]
    assert _rules(_one_node(helper.make_node("Add", ["x", "z"], ["y"])), "schema-arity") == []
    assert _rules(_one_node(helper.make_node("Clip", ["x"], ["y"])), "schema-arity") == []


def test_a_cast_to_a_type_onnx_does_not_define_is_flagged():
    """Mutant killed: ``to is None`` → ``is not None`` in ``spec_rules.cast_to``: Cast's ``to`` must be a
    TensorProto.DataType; a missing ``to`` is the schema's required-attribute question, not this rule's."""
    from onnx import helper

    assert _rules(_one_node(helper.make_node("Cast", ["x"], ["y"], to=100)), "cast-to") == [
        "to = 100 is not a TensorProto.DataType"
    ]
    assert _rules(_one_node(helper.make_node("Cast", ["x"], ["y"], to=onnx.TensorProto.INT32)), "cast-to") == []
    assert _rules(_one_node(helper.make_node("Cast", ["x"], ["y"])), "cast-to") == []


def test_a_reduce_ops_axes_input_is_checked_against_the_rank_of_data():
    """Mutant killed: ``axes_in_range(None, 1)`` → ``(None, 2)`` in ``spec_table``'s reduce rules, which read
    the axes from an input reduce ops do not have, so an axis input out of [-r, r-1] went unchecked (axes is
    input 1 from ReduceSum-13 and the other reduce ops' 18)."""
    text = """<ir_version: 8, opset_import: ["" : {}]>
g (float[2, 3] x) => (float[?] y) {{
  a = Constant <value = int64[1] {{{}}}> ()
  y = {} (x, a)
}}"""
    assert _violations(text.format(13, 1, "ReduceSum"), "reduce-axes") == []
    assert _violations(text.format(13, 5, "ReduceSum"), "reduce-axes") == [
        "input 'a' = [5]: [5] outside [-2, 1] (rank 2)"
    ]
    assert _violations(text.format(18, -2, "ReduceMean"), "reduce-axes") == []
    assert _violations(text.format(18, -3, "ReduceMean"), "reduce-axes") == [
        "input 'a' = [-3]: [-3] outside [-2, 1] (rank 2)"
    ]


def test_outputs_of_another_dtype_or_other_map_keys_differ_whichever_side_is_wider():
    """Mutants killed in ``numeric.compare``: ``a.dtype != e.dtype`` → ``<`` (numpy's "casts safely to": a
    float64 result for a float32 output passed) and ``set(actual) != set(expected)`` → ``==`` (maps with
    other keys compared key by key, then failing on a missing key)."""
    from passcheck.oracles.numeric import compare

    one32, one64 = np.ones(2, np.float32), np.ones(2, np.float64)
    assert compare(one64, one32).message == "dtype float64 vs expected float32"
    assert compare(one32, one64).message == "dtype float32 vs expected float64"
    assert compare(one32, one32).ok
    other = compare({"a": one32}, {"b": one32})
    assert not other.ok and other.message.startswith("map keys differ")
    assert compare({"a": one32}, {"a": one32}).ok


def test_an_optional_input_left_out_at_the_end_is_no_input_for_a_rule():
    """Mutant killed: ``i < len(node.input)`` → ``<=`` in ``spec_rules.Site.input``: a rule reading an
    optional input the node leaves out by ending its input list there (ReduceSum-13 without ``axes``,
    Dropout without ``ratio``) could not read the node (IndexError) and went undecided, instead of being
    decided with nothing to check."""
    from passcheck.oracles.conformance import evaluate

    for op in ("ReduceSum", "Dropout"):
        ev = evaluate(
            parser.parse_model(f"""<ir_version: 8, opset_import: ["" : 13]>
g (float[2, 3] x) => (float[?] y) {{ y = {op} (x) }}""")
        )
        assert ev.violations == [] and ev.undecided == {} and ev.decided >= 1, (op, ev.undecided)


def test_a_pass_that_removes_every_node_of_a_type_in_one_form_and_leaves_one_in_the_other_kept_it():
    """Mutant killed: ``ab.get(op, 0) > 0`` → ``> 1`` in ``parity._kept``: the other form keeping one node of a
    type the pass removed entirely from the first went unseen when the forms had different counts of it."""
    from passcheck.oracles.parity import _kept

    def form(before: str, after: str) -> FormRun:
        head = '<ir_version: 8, opset_import: ["" : 18]>\ng (float[2] x) => (float[2] y) '
        m, out = parser.parse_model(head + before), parser.parse_model(head + after)
        return FormRun("c", "f", "p", m, PassOutcome("p", "changed", out), [], [], [])

    a = form("{ t = Relu (x)  u = Relu (t)  y = Abs (u) }", "{ y = Abs (x) }")
    b = form("{ t = Relu (x)  u = Relu (t)  v = Relu (u)  y = Abs (v) }", "{ t = Relu (x)  y = Abs (t) }")
    assert _kept(a, b) == ["Relu"]
    b_none = form("{ t = Relu (x)  u = Relu (t)  v = Relu (u)  y = Abs (v) }", "{ y = Abs (x) }")
    assert _kept(a, b_none) == []


def test_an_output_that_never_ran_leaves_every_annotation_unchecked_none_unobserved():
    """Mutant killed: ``"unobserved": 0`` → ``1`` in ``annotations.coverage``: when no run of the output
    succeeded, every annotated value is unchecked (with why), none is counted unobserved."""
    from passcheck.oracles.annotations import coverage
    from passcheck.runtime import RunResult

    model = parser.parse_model("""<ir_version: 8, opset_import: ["" : 18]>
g (float[6] x, int64[2] shape) => (float[4, 4] y) { y = Reshape (x, shape) }""")
    failed = RunResult({}, {}, error="RuntimeError: cannot reshape")
    run = FormRun("c", "common", "p", model, PassOutcome("p", "changed", model), [{}], [failed], [failed])
    got = coverage(run)
    assert got["annotated"] == got["unchecked"] >= 1
    assert got["checked"] == got["unobserved"] == got["unobservable"] == 0
    assert all("did not run" in why for why in got["reasons"].values())
