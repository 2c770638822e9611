"""What a second ``passcheck matrix`` on one ``--out`` keeps (passcheck/matrix/reuse.py): a cell whose
model bytes, environment pins and passcheck source are unchanged, and checked; nothing else."""

from __future__ import annotations

import json

import pytest

from passcheck.matrix.reuse import reusable
from passcheck.records import CellResult

MODELS = {"c/x": {"common": "aa", "odd": "bb"}}
PINS = {"e1": "p1", "e2": "p2"}
PLANNED = [("c/x", f, "ort:basic", e) for f in ("common", "odd") for e in ("e1", "e2")]


@pytest.fixture
def out(tmp_path):
    plan = {
        "environments": [{"id": e, "pins_hash": h} for e, h in PINS.items()],
        "models": MODELS,
        "source": "s1",
    }
    (tmp_path / "plan.json").write_text(json.dumps(plan))
    recs = [{"type": "environment", "id": e, "versions": {"onnx": e}} for e in PINS]
    recs += [CellResult(c, f, p, "unchanged", env=e).to_json() for c, f, p, e in PLANNED]
    unchecked = CellResult("c/x", "odd", "ort:basic", "crashed", env="e2", unchecked={"output 'y'": "worker died"})
    recs.append(unchecked.to_json())  # the last record of a cell decides
    (tmp_path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in recs) + '{"type": "ce')
    return tmp_path


def kept(out, models=MODELS, pins=PINS, source="s1", planned=PLANNED):
    recs = reusable(out, out / "results.jsonl", models, pins, source, planned)
    return {(r["case"], r["form"], r["env"]) for r in recs if r["type"] == "cell"}, [
        r["id"] for r in recs if r["type"] == "environment"
    ]


def test_unchanged_checked_cells_are_kept_with_their_environments(out):
    cells, envs = kept(out)
    assert cells == {("c/x", "common", "e1"), ("c/x", "odd", "e1"), ("c/x", "common", "e2")} and envs == ["e1", "e2"]


def test_a_changed_model_pins_source_or_plan_keeps_nothing_of_it(out):
    assert kept(out, models={"c/x": {"common": "aa", "odd": "changed"}})[0] == {
        ("c/x", "common", "e1"),
        ("c/x", "common", "e2"),
    }
    assert kept(out, pins={"e1": "p1", "e2": "new"}) == ({("c/x", "common", "e1"), ("c/x", "odd", "e1")}, ["e1"])
    assert kept(out, source="s2") == (set(), [])
    assert kept(out, planned=PLANNED[:1])[0] == {("c/x", "common", "e1")}
    (out / "plan.json").write_text(json.dumps({"environments": [], "models": MODELS}))  # written before "source"
    assert kept(out) == (set(), [])
