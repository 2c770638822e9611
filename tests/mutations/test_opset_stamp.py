"""The opset stamp moved to the nearest boundary where no op of the model changes (issue 15)."""

from __future__ import annotations

from passcheck.cases import registry
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations._opsets import highest_opset, widened_only

from ._models import W, feeds, named

CONV_RELU = """g (float[N, 3, 5, 5] x) => (float[N, 2, 3, 3] y) {
    a = Conv(x, w)
    y = Relu(a)
}"""


def test_stamp_moves_down_to_the_newest_schema_and_up_to_the_ir_limit():
    m = named(CONV_RELU, opset=17, initializers=[W])  # Conv-11, Relu-14; IR 8
    lower, applied = REWRITES["opset-stamp-down"].apply(m)
    assert list(applied.nodes) == ["opset_import"] and lower.opset_import[0].version == 14
    higher, _ = REWRITES["opset-stamp-up"].apply(m)
    assert higher.opset_import[0].version == highest_opset(m.ir_version) == 18  # IR 8 goes with opset 18 at most
    for mutant in (lower, higher):
        verify_equivalent(m, mutant, feeds(m), "opset-stamp")
    assert REWRITES["opset-stamp-down"].apply(lower) is None  # already at the boundary


def test_stamp_stops_below_a_schema_change():
    m = named("""g (float[2, 3] x) => (float[2, 3] y) { y = Softmax(x) }""", opset=12)  # Softmax-11, Softmax-13 differs
    assert REWRITES["opset-stamp-up"].apply(m) is None
    lower, _ = REWRITES["opset-stamp-down"].apply(m)
    assert lower.opset_import[0].version == 11
    verify_equivalent(m, lower, feeds(m), "opset-stamp-down")


def test_only_and_functions():
    m = named(CONV_RELU, opset=17, initializers=[W])
    assert REWRITES["opset-stamp-down"].edit(m, frozenset({"n0"})) == []
    m = registry().get("functions/local-function").forms["common"].build()
    assert len(m.functions) and REWRITES["opset-stamp-down"].apply(m) is None  # a function's own imports are not moved


def test_type_widening_is_told_apart_from_a_semantic_change():
    assert widened_only("Relu", 12, 13)  # bfloat16 added
    assert not widened_only("Softmax", 12, 13)  # axis default and meaning changed
    assert not widened_only("Squeeze", 12, 13)  # axes moved to an input


def test_on_library_cases():
    for case_id in ("optional-input/conv-bn", "shape/dynamic-1-3-output", "axes/softmax-axis"):
        m = registry().get(case_id).forms["common"].build()
        for rid in ("opset-stamp-down", "opset-stamp-up"):
            got = REWRITES[rid].apply(m)
            if got:
                verify_equivalent(m, got[0], feeds(m), rid)


def test_a_stamp_below_7_is_not_moved_down():
    m = named("""g (float[2, 3] x) => (float[2, 3] y) { y = Relu(x) }""", opset=7)
    m.opset_import[0].version = 6  # Relu-6
    assert REWRITES["opset-stamp-down"].apply(m) is None
