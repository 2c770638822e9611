"""A limit a tool states for an op only the rewrite brought in is an environment fact of the hunt,
recorded once and skipped after, never a signature; one it states for an op the base has too
stays a finding (issue 30). Real onnx version converter, real onnxruntime runs."""

from __future__ import annotations

from onnx import parser

from passcheck.cases import Case, Form
from passcheck.hunt import limits
from passcheck.hunt.search import _run
from passcheck.hunt.space import Base, Item
from passcheck.hunt.store import Store
from passcheck.passes.isolation import IsolatedExecutor

PASS = "onnx:convert-opset-down"
# Split-13 converts down to opset 12; the Slices split-as-slices writes for it (Slice-13) do not:
# the converter states "No Adapter From Version $13 for Slice".
SPLIT = """<ir_version: 8, opset_import: ["" : 13]>
g (float[6] x) => (float[3] a, float[3] b) { a, b = Split <axis: int = 0> (x) }"""
# Slice-13 in the base too: the same limit there is the base's own, on both forms.
SLICE = """<ir_version: 8, opset_import: ["" : 13]>
g (float[6] x) => (float[3] a, float[3] b) {
  st = Constant <value: tensor = int64[1] {0}> ()
  en = Constant <value: tensor = int64[1] {3}> ()
  a = Slice (x, st, en)
  b = Neg (a)
}"""


def _base(text: str, name: str) -> Base:
    model = lambda: parser.parse_model(text)
    forms = {"common": Form(model), "again": Form(model, "the same")}
    case = Case(id=f"hunt-test/{name}", forms=forms, doc=f"{name} (tests only).", opset=13)
    return Base(case, "common")


def test_a_limit_for_an_op_only_the_rewrite_brought_is_recorded_once_and_skipped_after(tmp_path):
    store = Store(tmp_path / "h", {})
    base = _base(SPLIT, "split")
    item = Item(base.id, "split-as-slices", PASS)
    with IsolatedExecutor(timeout=120) as ex:
        first = _run(store, base, item, ex, None, ())
        again = _run(store, base, Item(base.id, "split-as-slices@#0:Split", PASS), ex, None, ())
    assert first["status"] == "unavailable" and first["signatures"] == [], first
    assert "No Adapter From Version $13 for Slice" in first["reason"]
    assert not store.signatures
    (fact,) = store.environment.values()
    assert (fact["pass"], fact["op"], fact["opset"], fact["step"], fact["items"]) == (PASS, "Slice", 13, "13->12", 1)
    assert again["status"] == "unavailable" and "recorded earlier" in again["reason"], again  # not run again
    assert (fact["items"], fact["skipped"]) == (1, 1)


def test_the_recorded_limit_survives_a_resume(tmp_path):
    store = Store(tmp_path / "h", {"seed": 0})
    limits.record(
        store.environment,
        PASS,
        [("No Adapter From Version $13 for Slice", "Slice")],
        parser.parse_model(SPLIT),
        parser.parse_model(SLICE),
        {"base": "b", "form": "f"},
    )
    store.save()
    again = Store.open(tmp_path / "h", {"seed": 0}, resume=True)
    assert again.environment == store.environment


def test_a_limit_for_an_op_the_base_has_too_is_not_an_environment_fact():
    """The split only applies to findings the acceptance oracle made of a stated limit; an op the
    base already has keeps the finding (the tool takes one spelling of it and not the other)."""
    from passcheck.passes._base import STATED_LIMIT
    from passcheck.records import Finding

    words = "onnx's version converter: No Adapter From Version $13 for Slice"
    error = STATED_LIMIT + words + " (opset 13 → 12)"
    f = Finding("rejected", "acceptance", "c", "uncommon", PASS, "m", details={"error": error})
    sliced = parser.parse_model(SLICE)
    kept, facts = limits.split([f], PASS, sliced, sliced)
    assert kept == [f] and facts == []
    kept, facts = limits.split([f], PASS, parser.parse_model(SPLIT), sliced)
    assert kept == [] and facts == [(words, "Slice")]
    declined = Finding("rejected", "acceptance", "c", "uncommon", PASS, "m", details={"error": "RuntimeError: x"})
    assert limits.split([declined], PASS, parser.parse_model(SPLIT), sliced) == ([declined], [])


def test_a_limit_met_on_another_conversion_than_the_base_s_is_not_about_a_spelling():
    """The base's Slice is converted 13 -> 12 and passes; a rewrite that restamps the model (here a
    Reshape-14 at opset 14) asks the converter for 14 -> 13 instead: a Slice limit met there is
    no finding about the Slice's spelling."""
    from passcheck.passes._base import STATED_LIMIT
    from passcheck.records import Finding

    words = "onnx's version converter: No Adapter From Version $13 for Slice"
    f = Finding("rejected", "acceptance", "c", "uncommon", PASS, "m", details={"error": STATED_LIMIT + words})
    restamped = parser.parse_model(SLICE.replace('"" : 13', '"" : 14'))
    assert limits.split([f], PASS, parser.parse_model(SLICE), restamped) == ([], [(words, "Slice")])
    assert limits.split([f], "onnx:convert-opset-11", parser.parse_model(SLICE), restamped) == ([], [(words, "Slice")])


def test_a_recorded_limit_skips_only_items_that_take_the_same_step():
    """``onnx:convert-opset-down`` converts each model to its own boundary: a rewritten form whose
    newest op moves the boundary (a Reshape-14 beside the Slice-13) does not convert the Slice, so
    the recorded Slice limit does not skip it."""
    at14 = lambda text: parser.parse_model(text.replace('"" : 13', '"" : 14'))
    base, slices = at14(SPLIT), at14(SLICE)
    reshape = "sh = Constant <value: tensor = int64[1] {3}> ()\n  b = Reshape (a, sh)"
    reshaped = at14(SLICE.replace("b = Neg (a)", reshape))
    env: dict = {}
    limits.record(
        env, PASS, [("No Adapter From Version $13 for Slice", "Slice")], base, slices, {"base": "b", "form": "f"}
    )
    assert next(iter(env.values()))["step"] == "14->12"
    assert limits.known(env, PASS, base, slices)["reason"] == "No Adapter From Version $13 for Slice"
    assert limits.known(env, PASS, base, reshaped) is None  # 14 -> 13: the Slice stays as it is
    assert limits.known(env, "onnx:convert-opset-12", base, slices) is None  # another pass: its own facts
