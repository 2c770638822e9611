"""One Signature (passcheck.signature) for every "is this the same bug?": two findings differing in
any one field are different bugs; the same bug found through two routes (``check`` with the
mutant as a form, and a hunt probe of the same pair) is one; hunt, reduce and root-cause grouping
all read the same type."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from passcheck.records import Finding
from passcheck.signature import Signature, rewrite_kind

PLANTED = str(Path(__file__).with_name("planted_hunt.py"))


def _finding(**change) -> Finding:
    base = {
        "kind": "rejected",
        "oracle": "runtime",
        "case": "c/x",
        "form": "commute-operands@Add_0",
        "pass_id": "ort:basic",
        "message": "onnxruntime rejects it: ValueError: bad",
        "details": {"error": "ValueError: bad", "kept_op_types": ["Add"]},
    }
    return Finding(**{**base, **change})


FIELDS = {
    "pass_id": {"pass_id": "ort:all"},
    "oracle": {"oracle": "validity"},
    "kind": {"kind": "invalid-model"},
    "ops": {"details": {"error": "ValueError: bad", "kept_op_types": ["Mul"]}},
    "rewrite": {"form": "negative-axes@Add_0"},
    "error": {"details": {"error": "TypeError: bad", "kept_op_types": ["Add"]}, "message": "TypeError: bad"},
}


def test_the_fields_are_the_designed_ones():
    # aliases (the keys an older passcheck spelled a signature with) are carried, never compared
    assert [f.name for f in dataclasses.fields(Signature) if f.compare] == list(FIELDS)


@pytest.mark.parametrize("field", FIELDS)
def test_findings_differing_in_one_field_are_different_signatures(field):
    one, other = Signature.of(_finding()), Signature.of(_finding(**FIELDS[field]))
    assert one != other and one.key != other.key
    assert [f for f in FIELDS if getattr(one, f) != getattr(other, f)] == [field]


def test_where_a_finding_sits_is_not_part_of_it():
    one = Signature.of(_finding())
    assert one == Signature.of(_finding(case="model/other", form="commute-operands@Mul_3", env="onnx-1.18"))
    assert rewrite_kind("a@x+a@y") == "a" and rewrite_kind("a@x+b") == "a+b" and rewrite_kind("common") == ""


def test_reduce_and_root_causes_use_the_one_signature():
    from passcheck.reduce.signature import signature as reduce_signature
    from passcheck.report.rootcause import signature_of

    f = _finding()
    assert reduce_signature(f)[1] == Signature.of(f)
    assert signature_of(f) == Signature.of(f).replace(rewrite="", pass_id="ort:level")


def test_a_store_key_without_an_error_class_is_the_old_five_field_key():
    sig = Signature("p", "numeric", "wrong-result", ("Add",), "commute-operands")
    assert sig.key == "p|numeric|wrong-result|Add|commute-operands"
    assert Signature.from_json({k: v for k, v in sig.to_json().items() if k != "error"}) == sig


def test_the_same_bug_through_check_and_through_hunt_is_one_signature(monkeypatch):
    # planted:commuted breaks an Add whose first operand is an initializer: one commuted site shows it
    import passcheck
    from passcheck.cases import load_path, registry
    from passcheck.hunt.probe import Setting, probe
    from passcheck.hunt.signature import signature as hunt_signature
    from passcheck.mutations import forms
    from passcheck.mutations.registry import REWRITES
    from passcheck.passes.isolation import IsolatedExecutor
    from tests.hunt.test_units import _SiteCommute

    monkeypatch.setitem(REWRITES, "test-commute", _SiteCommute())
    load_path(PLANTED)
    model = registry().get("hunt-test/layernorm").build("common")
    with IsolatedExecutor(timeout=120, preload=[PLANTED]) as ex:
        for label in forms.sites(model, "test-commute"):
            form = f"test-commute@{label}"
            mutant, labels = forms.build(model, form)
            hunted = [
                f
                for f in probe(Setting("hunt-test/layernorm"), model, form, mutant, "planted:commuted", ex).findings
                if f.form == form
            ]
            if hunted:
                break
        checked = passcheck.check_model(
            model, ["planted:commuted"], forms={form: mutant}, name="layernorm", executor=ex
        ).findings
    via_hunt = {hunt_signature(f, forms.kind(form), [model, mutant], labels) for f in hunted}
    via_check = {Signature.of(f, models=[model, mutant]) for f in checked if f.form == form and not f.expected}
    assert via_hunt and via_hunt == via_check, (via_hunt, via_check)
    assert {f.case for f in checked} != {f.case for f in hunted}  # two routes: a user model, a hunt case
