"""hunt-state.json is written after an item that found a new signature, at least every
SAVE_SECONDS between items, and when the loop ends however it ends (a Ctrl-C keeps every finished
item): not after every item (issue 30, throughput)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from passcheck.hunt import store as store_mod
from passcheck.hunt.store import Store

PLANTED = Path(__file__).with_name("planted_hunt.py")


def _saved_items(out: Path) -> int:
    return len(json.loads((out / "hunt-state.json").read_text())["items"])


def test_checkpoint_saves_on_a_new_signature_or_after_save_seconds(tmp_path, monkeypatch):
    monkeypatch.setattr(store_mod, "SAVE_SECONDS", 3600.0)
    s = Store(tmp_path / "h", {"seed": 0})
    assert s.checkpoint() is True  # never saved yet
    s.items.append({"base": "b", "form": "f", "pass": "p", "status": "done", "signatures": []})
    assert s.checkpoint() is False and _saved_items(tmp_path / "h") == 0
    s.signatures["k"] = {"hits": 1}
    assert s.checkpoint() is True and _saved_items(tmp_path / "h") == 1
    s.items.append(dict(s.items[0]))
    monkeypatch.setattr(store_mod, "SAVE_SECONDS", 0.0)
    assert s.checkpoint() is True and _saved_items(tmp_path / "h") == 2


def test_an_interrupted_hunt_keeps_every_item_it_finished(tmp_path, monkeypatch):
    from passcheck.cases import load_path
    from passcheck.hunt.budget import Budget
    from passcheck.hunt.search import hunt
    from passcheck.hunt.space import bases
    from passcheck.passes.isolation import IsolatedExecutor

    monkeypatch.setattr(store_mod, "SAVE_SECONDS", 3600.0)  # no timed save: only the end's
    load_path(str(PLANTED))
    found = bases(["hunt-test/*"], generated=False)
    s = Store(tmp_path / "h", {"seed": 1})
    done: list = []

    def on_item(item, rec):
        done.append(item)
        if len(done) == 3:
            raise KeyboardInterrupt

    with IsolatedExecutor(timeout=120, preload=[str(PLANTED)]) as ex, pytest.raises(KeyboardInterrupt):
        hunt(s, found, ["planted:negative-axes"], 1, Budget.parse("10items"), ex, on_item=on_item)
    assert _saved_items(tmp_path / "h") == 3
    again = Store.open(tmp_path / "h", {"seed": 1}, resume=True)
    assert [(i["base"], i["form"]) for i in again.items] == [(i.base, i.form) for i in done]


def test_a_store_says_whether_it_read_a_saved_state(tmp_path):
    # the CLI's "--resume: no hunt state" line reads it (was: a second Store built only for its path)
    first = Store.open(tmp_path / "h", {"seed": 0}, resume=True)
    assert first.resumed is False  # nothing saved there: a new state
    first.save()
    assert Store.open(tmp_path / "h", {"seed": 0}, resume=True).resumed is True
    assert Store(tmp_path / "h", {"seed": 0}).resumed is False  # built, not opened: nothing read
