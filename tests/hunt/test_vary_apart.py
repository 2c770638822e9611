"""The ``input-apart`` neighbour (:mod:`passcheck.hunt.vary_apart`) and its compositions spelled alike at the copy and
its origin (:func:`passcheck.hunt.compose._alike`). Judged with real onnx checks, onnxruntime runs and onnxscript's
own ScatterAllDynamic rule: with its installed dim comparison it declines the pair, with 0.3.2's (plain equality,
``tests/hunt/planted_apart.py``) it replaces a ScatterND into the other input by its updates (docs/recall.md R91)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import onnx
import pytest

from passcheck.cases import registry
from passcheck.hunt import compose, variation, vary_probe
from passcheck.hunt.probe import Setting, probe

sys.path.insert(0, str(Path(__file__).parent))
import planted_apart as P  # noqa: E402 - the planted pass, registered on import
from conftest import declared_dims as _dims  # noqa: E402

CASE = "pattern-onnxscript-scatter/all-dynamic"
FORM = "vary:input-apart@n4_ScatterND=0"
ALIKE = f"{FORM}>anonymous-input-dims@x+anonymous-input-dims@x__apart"


@pytest.fixture(scope="module")
def base():
    return registry().get(CASE).forms["common"].build()


def _setting(form, neighbour):
    case = registry().get(CASE)
    return vary_probe.setting_for(Setting(case.id, case.bindings, case.feeds, case.rtol, case.atol), form, neighbour)


def test_the_second_reader_reads_a_new_input_of_twice_the_size(base):
    forms = [f for f in variation.neighbours(base, random.Random(0)) if variation.kind(f) == "vary:input-apart"]
    assert forms == [FORM]  # x is read by Shape, then by ScatterND; upd once
    neighbour, labels = variation.build(base, FORM)
    assert labels == ["n4_ScatterND"]
    assert [v.name for v in neighbour.graph.input] == ["x", "upd", "x__apart"]
    assert _dims(neighbour.graph.input[2]) == ["N__apart", 3]
    assert _dims(neighbour.graph.output[0]) == ["N__apart", 3]  # refreshed: ScatterND keeps its data's shape
    onnx.checker.check_model(neighbour, full_check=True)
    assert [v.name for v in base.graph.input] == ["x", "upd"]  # the base is never modified
    fed = _setting(FORM, neighbour).feed_list(neighbour)
    # the case binds N to 1, then 3; N__apart is twice that
    assert [(f["x"].shape, f["x__apart"].shape) for f in fed] == [((1, 3), (2, 3)), ((3, 3), (6, 3))]


def test_the_gate_keeps_it_with_its_added_input(inproc_executor, base):
    neighbour, _ = variation.build(base, FORM)
    assert vary_probe.invalid(_setting(FORM, neighbour), base, neighbour, inproc_executor, FORM) is None


def test_a_rewrite_opened_on_the_copy_is_spelled_at_its_origin_too(base):
    fresh, _ = compose.compositions(base, FORM, random.Random(1), only={"anonymous-input-dims"})
    assert ALIKE in fresh, fresh
    neighbour, mutant, _ = compose.build(base, ALIKE)
    assert [_dims(v) for v in mutant.graph.input] == [["", ""], ["N", 3], ["", ""]]


@pytest.mark.parametrize(("pass_id", "found"), [(P.PASS_ID, True), ("onnxscript:rewrite", False)])
def test_a_rule_taking_two_unknown_dims_for_equal_is_found_on_the_alike_pair(inproc_executor, base, pass_id, found):
    neighbour, mutant, _ = compose.build(base, ALIKE)
    out = probe(_setting(FORM, neighbour), neighbour, ALIKE, mutant, pass_id, inproc_executor)
    assert out.status == "done", out
    wrong = [f for f in out.findings if f.oracle == "numeric"]
    assert bool(wrong) == found, out.findings


def test_a_saved_pair_binds_the_new_symbols(tmp_path, base):
    """The case module a hunt writes for the neighbour (``vary_probe.saved``) and for its composed pair in an
    environment (``windows._write_pair``) carries the doubled size: without it the new symbol is bound by default,
    to the same size as the original, and the two inputs no longer differ."""
    from passcheck.hunt import windows
    from passcheck.hunt.space import Item

    case = registry().get(CASE)
    setting = Setting(case.id, case.bindings, case.feeds, case.rtol, case.atol)
    assert vary_probe.saved(setting, base, FORM) == {"bindings": ({"N": 1, "N__apart": 2}, {"N": 3, "N__apart": 6})}
    neighbour, mutant, _ = compose.build(base, ALIKE)
    own = _setting(FORM, neighbour).bindings
    item = Item(f"{CASE}:common", ALIKE, "onnxscript:optimize")
    path = windows._write_pair(tmp_path, "hunt/env-0", neighbour, mutant, item, None, None, own)
    assert "N__apart" in path.read_text(encoding="utf-8")
