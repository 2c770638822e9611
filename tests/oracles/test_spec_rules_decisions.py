"""What each prose rule of :mod:`passcheck.oracles.spec_rules` decides on a real model, read through
:func:`passcheck.oracles.conformance.evaluate` (onnx shape inference for the ranks).

Each test pins a boundary a surviving mutant of ``bench/mutation_score.py`` moved: the rule's
verdict on both sides of it, the exact text of a violation, and why an undecided rule was undecided
(a rule that raises is recorded as undecided too, so the reason is asserted, not just its presence).
Rules and their sources: ``passcheck/oracles/spec_table.py`` (ONNX Operators.md).
"""

from __future__ import annotations

from onnx import parser

from passcheck.oracles import conformance


def _judge(graph: str, rule: str, *, opset: int = 18, rankless: tuple[str, ...] = ()):
    """(messages of ``rule``'s violations, its undecided reason or None) on the model ``graph``;
    graph inputs named in ``rankless`` lose their shape (rank unknown)."""
    model = parser.parse_model(f'<ir_version: 8, opset_import: ["" : {opset}]>\n{graph}')
    for vi in model.graph.input:
        if vi.name in rankless:
            vi.type.tensor_type.ClearField("shape")
    ev = conformance.evaluate(model)
    said = [v.message for v in ev.violations if v.rule == rule]
    reasons = [why for key, why in ev.undecided.items() if key.split("@")[0] == rule]
    assert len(reasons) <= 1
    return said, (reasons[0] if reasons else None)


def _conv(x: str, w: str, attrs: str = "", rankless: tuple[str, ...] = (), rule: str = "conv-group"):
    attrs = f"<{attrs}>" if attrs else ""
    return _judge(f"g ({x} x, {w} w) => (float y) {{ y = Conv {attrs} (x, w) }}", rule, rankless=rankless)


# --- spatial_length: len(attr) == factor * (rank - 2), rank of X, else of W (Conv/MaxPool, strides, pads)


def test_a_spatial_attribute_is_judged_against_the_weight_rank_when_the_input_rank_is_unknown():
    w = "float[2,4,3,3]"
    assert _conv("float", w, "strides = [1, 1]", ("x",), "window-strides-length") == ([], None)
    assert _conv("float", w, "strides = [1, 1, 1]", ("x",), "window-strides-length") == (
        ["strides has 3 values; the input has 2 spatial axes, so 2 are documented"],
        None,
    )


def test_a_spatial_attribute_is_undecided_naming_the_input_when_no_rank_is_known():
    got = _conv("float", "float", "strides = [1, 1]", ("x", "w"), "window-strides-length")
    assert got == ([], "the rank of input 'x' is unknown (shape inference gave none)")


def test_a_spatial_attribute_too_long_or_too_short_breaks_the_rule():
    x, w = "float[1,4,5,5]", "float[2,4,3,3]"
    assert _conv(x, w, "pads = [0, 0, 0, 0]", rule="window-pads-length") == ([], None)
    assert _conv(x, w, "pads = [0, 0]", rule="window-pads-length")[0] == [
        "pads has 2 values; the input has 2 spatial axes, so 4 are documented"
    ]
    assert _conv(x, w, "pads = [0, 0, 0, 0, 0, 0]", rule="window-pads-length")[0] == [
        "pads has 6 values; the input has 2 spatial axes, so 4 are documented"
    ]


# --- conv_group: X.shape[1] == W.shape[1] * group and W.shape[0] % group == 0 (Conv, input W)


def test_conv_group_is_decided_on_rank_two_x_and_w():
    # the rule reads dims 0 and 1 only: rank 2 is enough to decide it
    assert _conv("float[1,4]", "float[2,2]", "group = 2") == ([], None)
    assert _conv("float[1,4]", "float[2,2]", "group = 3")[0] != []


def test_conv_group_reads_the_weight_dim_two_is_not_needed():
    assert _conv("float[1,4,5]", "float[2,2,K]", "group = 2") == ([], None)


def test_conv_group_is_undecided_when_either_rank_is_unknown_or_below_two():
    why = "the channel counts of X and W are not static"
    assert _conv("float", "float[2,2,3]", "group = 2", ("x",)) == ([], why)
    assert _conv("float[1,4,5]", "float", "group = 2", ("w",)) == ([], why)
    assert _conv("float[4]", "float[2,2,3]", "group = 2") == ([], why)
    assert _conv("float[1,4,5]", "float[2]", "group = 2") == ([], why)


def test_conv_group_breaks_on_too_many_input_channels_and_on_m_not_a_multiple_of_group():
    said = "X.shape[1] must equal W.shape[1] * group and M a multiple of group"
    assert _conv("float[1,4,5]", "float[2,2,3]", "group = 2") == ([], None)
    (more,), _ = _conv("float[1,6,5]", "float[2,2,3]", "group = 2")
    assert more == f"group = 2 with X channels 6 and W [2, 2]: {said}"
    (odd_m,), _ = _conv("float[1,4,5]", "float[3,2,3]", "group = 2")
    assert odd_m == f"group = 2 with X channels 4 and W [3, 2]: {said}"


# --- permutation (Transpose, attribute perm)


def test_a_perm_that_is_no_permutation_says_the_range_it_should_cover():
    got = _judge("g (float[2,3,4] x) => (float y) { y = Transpose <perm = [0, 2, 2]> (x) }", "transpose-perm")
    assert got == (["perm = [0, 2, 2] is not a permutation of 0..2"], None)


def test_a_perm_on_an_input_of_unknown_rank_is_undecided_naming_the_input():
    got = _judge("g (float x) => (float y) { y = Transpose <perm = [1, 0]> (x) }", "transpose-perm", rankless=("x",))
    assert got == ([], "the rank of input 'x' is unknown (shape inference gave none)")


# --- split_sizes (Split, split: sizes >= 0 summing to the dim at axis; axis defaults to 0)


def _split(x: str, sizes: list[int], axis: int | None = None, rankless: tuple[str, ...] = ()):
    attr = f" <axis = {axis}>" if axis is not None else ""
    outs = ", ".join(f"float y{i}" for i in range(len(sizes)))
    names = ", ".join(f"y{i}" for i in range(len(sizes)))
    return _judge(
        f"g ({x} x) => ({outs}) {{ s = Constant <value_ints = {sizes}> ()  {names} = Split{attr} (x, s) }}",
        "split-sizes",
        rankless=rankless,
    )


def test_a_split_size_of_zero_is_allowed_and_a_negative_one_is_not():
    assert _split("float[4,6]", [0, 4]) == ([], None)
    assert _split("float[4,6]", [-1, 5])[0] == ["split = [-1, 5] has a negative size"]


def test_split_sizes_sum_to_dim_zero_when_axis_is_not_given():
    assert _split("float[4,6]", [1, 3]) == ([], None)
    assert _split("float[4,6]", [2, 4])[0] == ["split = [2, 4] sums to 6, not to dim 0 (4)"]
    assert _split("float[4,6]", [2, 4], axis=1) == ([], None)


def test_split_sizes_summing_past_the_dim_break_the_rule():
    assert _split("float[4,6]", [3, 3])[0] == ["split = [3, 3] sums to 6, not to dim 0 (4)"]


def test_split_is_undecided_on_an_axis_out_of_range_or_a_dim_that_is_not_static():
    assert _split("float[4,6]", [1, 3], axis=2) == ([], "dim 2 of 'x' is not static")
    assert _split("float[4,6]", [1, 3], axis=3) == ([], "dim 3 of 'x' is not static")
    assert _split("float[N,6]", [1, 3]) == ([], "dim 0 of 'x' is not static")
    assert _split("float", [1, 3], rankless=("x",)) == (
        [],
        "the rank of input 'x' is unknown (shape inference gave none)",
    )


# --- pad_length (Pad: 2 x num_axes values)


def test_pads_on_an_input_of_unknown_rank_are_undecided_naming_the_input():
    got = _judge(
        "g (float x) => (float y) { p = Constant <value_ints = [0, 0]> ()  y = Pad (x, p) }",
        "pad-length",
        rankless=("x",),
    )
    assert got == ([], "the rank of input 'x' is unknown (shape inference gave none)")


# --- einsum_equation (Einsum, attribute equation)


def _einsum(eq: str, *inputs: str):
    sig = ", ".join(f"{t} x{i}" for i, t in enumerate(inputs))
    names = ", ".join(f"x{i}" for i in range(len(inputs)))
    return _judge(f'g ({sig}) => (float y) {{ y = Einsum <equation = "{eq}"> ({names}) }}', "einsum-equation")


def test_an_einsum_term_that_is_not_letters_breaks_the_rule_with_or_without_an_arrow():
    said = "is not comma-separated letter terms with an optional '->' output"
    assert _einsum("a1,b->ab", "float[2,3]", "float[4]")[0] == [f"equation 'a1,b->ab' {said}"]
    assert _einsum("ab->a->b", "float[2,3]")[0] == [f"equation 'ab->a->b' {said}"]


def test_an_einsum_with_more_or_fewer_terms_than_inputs_breaks_the_rule():
    assert _einsum("ab,bc->ac", "float[2,3]", "float[3,4]") == ([], None)
    assert _einsum("ab,bc->ac", "float[2,3]")[0] == ["equation 'ab,bc->ac' has 2 input terms for 1 inputs"]
    assert _einsum("ab->a", "float[2,3]", "float[3,4]")[0] == ["equation 'ab->a' has 1 input terms for 2 inputs"]


def test_an_einsum_output_term_repeating_a_letter_naming_a_new_one_or_with_two_ellipses_breaks_the_rule():
    said = "the output term repeats a letter, has two ellipses, or names a letter no input has"
    assert _einsum("ab,bc->aa", "float[2,3]", "float[3,4]")[0] == [f"equation 'ab,bc->aa': {said}"]
    assert _einsum("ab,bc->ad", "float[2,3]", "float[3,4]")[0] == [f"equation 'ab,bc->ad': {said}"]
    assert _einsum("...ab,...bc->......ac", "float[5,2,3]", "float[5,3,4]")[0] == [
        f"equation '...ab,...bc->......ac': {said}"
    ]
    assert _einsum("...ab,...bc->...ac", "float[5,2,3]", "float[5,3,4]") == ([], None)
