"""A base's rewrite listing kept on disk (passcheck.mutations.listing): read back equal to what computing it gives,
for any seed; missed when the rewrites change; not kept when a worker died; a hunt's items and findings the same
with the cache and without it."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from passcheck.cases import registry
from passcheck.errors import WorkerDied
from passcheck.mutations import forms as hforms
from passcheck.mutations import listing
from passcheck.mutations.registry import REWRITES
from tests._inproc import cli
from tests._shared import forms_cache_on

CASE = "pattern-ort-fusion/focus-space-to-depth"  # several rewrites apply, more pairs than a sample takes


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The listing cache on, in a folder of its own; ``calls`` counts the listings computed."""
    return forms_cache_on(tmp_path, monkeypatch, "_listing")


def _forms(model, seed: int) -> tuple[list[str], dict[str, list[str]]]:
    labels: dict[str, list[str]] = {}
    return hforms.enumerate_forms(model, random.Random(seed), max_sites=0, labels=labels), labels


def _uncached(model, seed: int, monkeypatch) -> tuple[list[str], dict[str, list[str]]]:
    with monkeypatch.context() as m:
        m.setenv(listing.SWITCH, "0")
        return _forms(model, seed)


def test_a_listing_read_from_the_cache_equals_the_computed_one_for_every_seed(cache, monkeypatch):
    folder, calls = cache
    model = registry().get(CASE).build("common")
    want = {seed: _uncached(model, seed, monkeypatch) for seed in (0, 1)}
    assert want[0][0] != want[1][0]  # the premise: the seed samples other pairs here
    assert calls == [1, 1]  # off: computed each time, nothing written
    assert not folder.exists()
    cold = _forms(model, 0)
    assert len(calls) == 3 and len(list(folder.glob("*/*.json"))) == 1
    warm = {seed: _forms(model, seed) for seed in (0, 1)}  # one entry serves every seed
    assert len(calls) == 3
    assert cold == want[0] and warm == want
    assert list(warm[0][1]) == [f for f in warm[0][0] if "+" not in f]  # labels in the forms' (registry) order


def test_a_changed_rewrite_set_misses_the_cache(cache):
    folder, calls = cache
    model = registry().get(CASE).build("common")
    before, _ = _forms(model, 0)
    rid = next(f for f in before if "+" not in f)
    never = dataclasses.replace(REWRITES[rid], edit=lambda model, only=None: [])  # the same id, another behaviour
    with pytest.MonkeyPatch.context() as m:
        m.setitem(REWRITES, rid, never)
        changed, labels = _forms(model, 0)
    assert len(calls) == 2 and rid not in changed and rid not in labels
    assert len(list(folder.iterdir())) == 2  # another key
    again, _ = _forms(model, 0)  # the registry restored: its first entry again
    assert again == before and len(calls) == 2


def test_a_listing_during_which_a_worker_died_is_not_kept(cache):
    folder, calls = cache
    model = registry().get(CASE).build("common")

    def dies(model, only=None):
        raise WorkerDied("killed by SIGKILL")

    with pytest.MonkeyPatch.context() as m:
        m.setitem(REWRITES, "test-dies", dataclasses.replace(next(iter(REWRITES.values())), id="test-dies", edit=dies))
        first, _ = _forms(model, 0)
        second, _ = _forms(model, 0)
    assert "test-dies" not in first and first == second
    assert len(calls) == 2 and not list(folder.glob("*/*.json"))


def test_an_unreadable_entry_is_computed_again_and_replaced(cache):
    folder, calls = cache
    model = registry().get(CASE).build("common")
    want = _forms(model, 0)
    (entry,) = folder.glob("*/*.json")
    entry.write_text('{"applicable": [', encoding="utf-8")  # torn by a kill
    assert _forms(model, 0) == want and len(calls) == 2
    assert json.loads(entry.read_text(encoding="utf-8"))["applicable"]


def test_the_key_covers_mutations_and_every_layer_below_it():
    import tomllib

    doc = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    (layers,) = [c["layers"] for c in doc["tool"]["importlinter"]["contracts"] if c["id"] == "layers"]
    at = next(i for i, x in enumerate(layers) if "mutations" in x.split(" | "))
    below = {"mutations"} | {n.strip() for x in layers[at + 1 :] for n in x.split("|")}
    assert below <= set(listing.SOURCES)


def _state(out: Path) -> tuple[list, dict]:
    state = json.loads((out / "hunt-state.json").read_text())
    items = [{k: v for k, v in i.items() if k != "seconds"} for i in state["items"]]
    return items, {k: s["signature"] for k, s in state["signatures"].items()}


@pytest.mark.slow
def test_a_hunt_s_items_and_findings_are_the_same_with_the_cache_and_without(tmp_path, monkeypatch):
    argv = ["hunt", "--case", "broadcast/*", "--no-generated", "--no-coverage", "--no-variation", "--seed", "3"]
    argv += ["--pass", "onnx:infer-shapes", "--budget", "5items", "--progress", "none"]
    calls: list[int] = []
    real = hforms._listing
    monkeypatch.setattr(hforms, "_listing", lambda m: calls.append(1) or real(m))
    runs, computed = {}, {}
    for name, on in (("off", "0"), ("cold", "1"), ("warm", "1")):
        before = len(calls)
        r = cli(*argv, "--out", tmp_path / name, env={"PASSCHECK_CACHE": str(tmp_path / "cache"), listing.SWITCH: on})
        assert r.returncode in (0, 1), r.stderr[-2000:]
        runs[name], computed[name] = _state(tmp_path / name), len(calls) - before
    assert len(runs["off"][0]) == 5 and runs["cold"] == runs["off"] and runs["warm"] == runs["off"]
    assert computed["cold"] == computed["off"] > 0 and computed["warm"] == 0  # the warm hunt read every listing
