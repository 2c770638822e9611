"""A baseline of a pass's step covers the same signature under the pass (passcheck.hunt.baseline, M509).

``ort:all+<key>=<value>`` declares ``steps = ("ort:all",)`` (passcheck/passes/ort_config.py): a hunt of the keyed
pass against a baseline written by a plain ``ort:all`` hunt counts the level's own signatures known and keeps
only what the key adds.
"""

from __future__ import annotations

from passcheck.hunt import baseline, documented
from passcheck.signature import Signature

KEYED = "ort:all+session.disable_quant_qdq=1"


def _store(sig: Signature) -> dict:
    return {sig.key: {"signature": sig.to_json(), "case": "hunt/x-00000000"}}


def _sig(pass_id: str, kind: str = "missed-optimization") -> Signature:
    return Signature(pass_id, "parity", kind, ("DequantizeLinear", "MatMul"), "dq-shared")


def test_step_baseline_makes_the_keyed_signature_known() -> None:
    known = {_sig("ort:all").key: {}}
    new, old = baseline.split(_store(_sig(KEYED)), known, documented=False)
    assert not new and list(old) == [_sig(KEYED).key]


def test_other_signatures_and_other_passes_stay_new() -> None:
    known = {_sig("ort:all").key: {}, _sig("ort:basic", "wrong-result").key: {}}
    # another kind under the key: what the key adds
    assert baseline.split(_store(_sig(KEYED, "wrong-result")), known, documented=False)[0]
    # a level that is not the key's step
    assert baseline.split(_store(_sig("ort:extended")), known, documented=False)[0]
    # the step's baseline does not cover a pass that is no step of it, nor the reverse
    assert baseline.split(_store(_sig("ort:all")), {_sig(KEYED).key: {}}, documented=False)[0]


def test_planted_break_steps_not_followed(monkeypatch) -> None:
    """A baseline that ignores steps (the behaviour before M509) leaves the level's signature new."""
    monkeypatch.setattr(documented, "pass_steps", lambda pass_id: ())
    new, old = baseline.split(_store(_sig(KEYED)), {_sig("ort:all").key: {}}, documented=False)
    assert list(new) == [_sig(KEYED).key] and not old
