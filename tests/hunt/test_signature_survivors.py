"""Signature details where mutation showed the suite blind (bench/results/mutation.jsonl): aliases survive a
JSON round trip, the error class comes from the message when the details carry no error, and a site label
may itself hold an ``@``."""

from __future__ import annotations

from passcheck.records import Finding
from passcheck.signature import Signature, error_class, form_labels


def test_a_signature_with_aliases_round_trips_through_json_and_one_without_writes_none():
    head = ("onnxscript:optimize", "acceptance", "rejected", (), "neutral-op", "ValueError")
    aliased, plain = Signature(*head, ("old|key",)), Signature(*head)
    assert aliased.to_json()["aliases"] == ["old|key"] and Signature.from_json(aliased.to_json()) == aliased
    assert "aliases" not in plain.to_json() and Signature.from_json(plain.to_json()) == plain


def test_the_error_class_comes_from_the_message_when_the_details_carry_no_error():
    f = Finding("rejected", "acceptance", "c", "u", "ort:basic", "onnxruntime refuses: RuntimeException in Load", {})
    assert error_class(f) == "RuntimeException"
    with_error = Finding("rejected", "acceptance", "c", "u", "ort:basic", "refused", {"error": "ValueError: x"})
    assert error_class(with_error) == "ValueError"


def test_a_site_label_holding_an_at_sign_is_kept_whole():
    assert form_labels("neutral-op@w@2->#3:Mul+cast-same@x->#1:Add") == {"w@2->#3:Mul", "x->#1:Add"}


def test_run_errors_alike_in_their_first_100_characters_are_one_behaviour():
    """Mutant killed: ``error_phrase``'s cut at 100 characters → 101: two run errors that differ only
    past the documented 100 characters (a long message ending in what differs per model) are one phrase."""
    from passcheck.signature import error_phrase

    first, second = (error_phrase("RuntimeError: " + "a" * 86 + end) for end in ("b", "c"))
    assert first == second == "RuntimeError: " + "a" * 86 and len(first) == 100
