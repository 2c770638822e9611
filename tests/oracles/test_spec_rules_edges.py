"""More boundaries of :mod:`passcheck.oracles.spec_rules`, each read through
:func:`passcheck.oracles.conformance.evaluate` on a real model (onnx shape inference for the ranks), or on
the rule table itself where the behaviour is the table's (opset ranges, immutability).

Each test pins one side of a boundary the rule's source states (ONNX Operators.md, the section in
``passcheck/oracles/spec_table.py``): a rule that does not apply says nothing, not even "undecided"; the
exact text of a violation; where an opset moved an attribute into an input.
"""

from __future__ import annotations

import dataclasses

import pytest

from passcheck.oracles.spec_table import RULES
from tests.oracles.test_spec_rules_decisions import _judge

_RULE = {r.id: r for r in RULES}


# --- Rule: the opset range [lo, hi), lo 1 unless stated; the table is immutable data


def test_a_rule_without_an_opset_range_holds_from_opset_1_and_a_range_excludes_its_end():
    assert _RULE["transpose-perm"].since == (1, None) and _RULE["transpose-perm"].applies("Transpose", 1)
    # Pad's mode: constant/reflect/edge until 19, where wrap comes (Pad-19)
    assert _RULE["pad-mode"].applies("Pad", 18) and not _RULE["pad-mode"].applies("Pad", 19)
    assert not _RULE["pad-mode"].applies("Pad", 21)
    assert _RULE["pad-mode-wrap"].applies("Pad", 19)


@pytest.mark.parametrize("opset", [19, 21])
def test_pad_mode_wrap_is_no_violation_from_opset_19_and_is_one_before(opset):
    graph = (
        'g (float[2,3] x) => (float y) { p = Constant <value_ints = [0, 1, 0, 1]> ()  y = Pad <mode = "wrap"> (x, p) }'
    )
    assert _judge(graph, "pad-mode", opset=opset) == ([], None)
    assert _judge(graph, "pad-mode-wrap", opset=opset) == ([], None)
    said = "mode = 'wrap' is not one of 'constant', 'reflect', 'edge'"
    assert _judge(graph, "pad-mode", opset=18) == ([said], None)


def test_a_rule_is_immutable_hashable_data():
    rule = RULES[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rule.since = (2, None)
    assert len(set(RULES)) == len(RULES)


# --- each / split_sizes: nothing to read is no verdict at all; a non-constant input is undecided


def test_an_each_rule_without_its_attribute_says_nothing_and_on_a_computed_input_is_undecided():
    conv = "g (float[1,2,5,5] x, float[2,2,3,3] w) => (float y) { y = Conv (x, w) }"
    assert _judge(conv, "window-strides-positive") == ([], None)
    sliced = (
        "g (float[4,6] x, int64[1] st) => (float y) "
        "{ b = Constant <value_ints = [0]> ()  e = Constant <value_ints = [4]> ()  "
        "a = Constant <value_ints = [0]> ()  y = Slice (x, b, e, a, st) }"
    )
    assert _judge(sliced, "slice-steps-non-zero") == ([], "input 'st' is not a constant")
    sliced_const = sliced.replace("int64[1] st", "int64[1] unused").replace(
        "y = Slice", "st = Constant <value_ints = [0]> ()  y = Slice"
    )
    assert _judge(sliced_const, "slice-steps-non-zero")[0] == ["steps = [0]: [0] are 0"]


def test_split_without_sizes_says_nothing():
    assert _judge(
        "g (float[4,6] x) => (float y0, float y1) { y0, y1 = Split <num_outputs = 2> (x) }", "split-sizes"
    ) == (
        [],
        None,
    )


# --- axes_in_range: uniqueness only where the source asks for it


def test_an_axis_named_twice_breaks_only_the_rules_whose_source_forbids_it():
    # ReduceSum's axes: "Accepted range is [-r, r-1]", nothing on repeats;
    # Unsqueeze's: "an error if it contains duplicates" (-4 is 0 in the rank-4 output)
    reduce = "g (float[2,3] x) => (float y) { a = Constant <value_ints = [1, -1]> ()  y = ReduceSum (x, a) }"
    assert _judge(reduce, "reduce-axes-input-ReduceSum") == ([], None)
    unsq = "g (float[2,3] x) => (float y) { a = Constant <value_ints = [0, -4]> ()  y = Unsqueeze (x, a) }"
    assert _judge(unsq, "unsqueeze-axes")[0] == ["axes = [0, -4] names an axis twice (rank 4)"]


# --- permutation (Transpose, perm)


def test_a_perm_sorting_below_its_range_or_longer_than_the_rank_breaks_the_rule():
    got = _judge("g (float[2,3] x) => (float y) { y = Transpose <perm = [0, 0]> (x) }", "transpose-perm")
    assert got == (["perm = [0, 0] is not a permutation of 0..1"], None)
    got = _judge("g (float[2,3] x) => (float y) { y = Transpose <perm = [0, 1, 2]> (x) }", "transpose-perm")
    assert got == (["perm has 3 values; the input has rank 2"], None)


# --- pad_length (Pad: pads an input from opset 11, axes an input from 18)


def test_pads_are_an_input_from_opset_11():
    graph = "g (float[2,3] x) => (float y) { p = Constant <value_ints = [0, 0]> ()  y = Pad (x, p) }"
    assert _judge(graph, "pad-length", opset=11)[0] == ["pads has 2 values; 4 (2 x 2 axes) are documented"]


@pytest.mark.parametrize("opset", [18, 21])
def test_pads_count_the_axes_input_from_opset_18(opset):
    graph = (
        "g (float[2,3] x) => (float y) { p = Constant <value_ints = [0, 1]> ()  "
        "c = Constant <value = float {0}> ()  a = Constant <value_ints = [1]> ()  y = Pad (x, p, c, a) }"
    )
    assert _judge(graph, "pad-length", opset=opset) == ([], None)


def test_too_few_pads_break_the_rule_saying_how_many_the_rank_asks():
    graph = "g (float[2,3,4] x) => (float y) { p = Constant <value_ints = [0, 0, 0, 0]> ()  y = Pad (x, p) }"
    assert _judge(graph, "pad-length")[0] == ["pads has 4 values; 6 (2 x 3 axes) are documented"]


# --- reshape_shape (Reshape-5+, input shape; allowzero from 14)


def _reshape(shape: list[int], allowzero: int | None = None, opset: int = 18):
    attr = f" <allowzero = {allowzero}>" if allowzero is not None else ""
    graph = f"g (float[2,3] x) => (float y) {{ s = Constant <value_ints = {shape}> ()  y = Reshape{attr} (x, s) }}"
    return _judge(graph, "reshape-shape", opset=opset)


def test_two_minus_ones_break_the_reshape_rule_and_ones_do_not():
    assert _reshape([-1, -1]) == (["shape = [-1, -1] has more than one -1"], None)
    assert _reshape([1, 1, -1]) == ([], None)


def test_zero_and_minus_one_together_break_the_rule_only_with_allowzero():
    said = "shape = [0, -1] holds both 0 and -1 with allowzero=1"
    assert _reshape([0, -1], allowzero=1) == ([said], None)
    assert _reshape([0, -1], allowzero=0) == ([], None)
    assert _reshape([0, -1]) == ([], None)
    assert _reshape([1, 0, 6], allowzero=1) == ([], None)
