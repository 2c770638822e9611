"""hunt at CI scale with real tools (issue 30): --shard I/N splits one item sequence, 'passcheck
merge' joins the shards into the unsharded run's items and signatures, a signature baseline turns
the known ones into counts, and bad shard/merge/baseline input is one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.hunt.shared_runs import PLANTED, negative_axes_runs
from tests.hunt.shared_runs import cli as _cli
from tests.hunt.shared_runs import hunt as _hunt


def _state(out: Path) -> dict:
    return json.loads((out / "hunt-state.json").read_text())


def _items(state: dict) -> list[tuple[str, str, str, str]]:
    return [(i["base"], i["form"], i["pass"], i["status"]) for i in state["items"] if i["status"] != "other-shard"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The shared planted hunt, its shards, their merge and baseline (tests/hunt/shared_runs.py)."""
    tmp, res = negative_axes_runs(tmp_path_factory)
    return tmp, res["whole"], res["one"], res["two"], res["merged"]


def test_two_shards_merged_are_the_unsharded_run(runs):
    tmp, whole, one, two, merged = runs
    for r in (whole, one, two):
        assert r.returncode in (0, 1), r.stderr
    unsharded = _state(tmp / "whole")
    assert len(unsharded["items"]) == 20 and unsharded["signatures"], "the planted pass is found within 20 items"
    s1, s2 = _items(_state(tmp / "s1")), _items(_state(tmp / "s2"))
    assert s1 and s2 and not set(s1) & set(s2)  # disjoint, and each shard ran its share
    assert [i[:3] for i in _items(unsharded)][0::2] == [i[:3] for i in s1]  # shard 1/2: steps 0, 2, 4, …
    assert merged.returncode == 1, merged.stderr  # a signature, no baseline
    state = _state(tmp / "merged")
    assert _items(state) == _items(unsharded)
    assert set(state["signatures"]) == set(unsharded["signatures"])
    assert {k: s["hits"] for k, s in state["signatures"].items()} == {
        k: s["hits"] for k, s in unsharded["signatures"].items()
    }
    for rec in state["signatures"].values():  # each shrunk pair kept once, in the merged folder
        if rec.get("case_module"):
            assert Path(rec["case_module"]).parent == tmp / "merged" / "cases" and Path(rec["case_module"]).is_file()
    assert len(list((tmp / "merged" / "cases").iterdir())) == len(
        [r for r in state["signatures"].values() if r.get("case_module")]
    )
    md = (tmp / "merged" / "summary.md").read_text()
    assert f"**{len(state['signatures'])} new**" in md and "### New signatures" in md and "reproduce" in md
    assert "environment facts" in md and "documented tool limits" in md and "budget artefacts" in md
    assert "items per item-second" in merged.stderr


def test_baseline_run_reports_no_new_signature(runs, tmp_path):
    tmp, whole, *_ = runs
    known = json.loads((tmp / "known.json").read_text())
    assert known["passcheck"] == "hunt-signatures" and {e["key"] for e in known["signatures"]} == set(
        _state(tmp / "whole")["signatures"]
    )
    # --stop-after counts new signatures only: the known ones found again do not end it
    again = _hunt(tmp_path / "again", "--baseline", str(tmp / "known.json"), "--stop-after", "1")
    assert again.returncode == 0, again.stderr
    assert "budget spent" in again.stderr and len(_state(tmp_path / "again")["items"]) == 20, again.stderr
    n = len(known["signatures"])
    assert f"0 new, {n} known" in again.stderr and "known signatures seen again" in again.stderr
    assert again.stdout.strip() == f"no new signature ({n} known)"
    assert "**0 new**" in (tmp_path / "again" / "summary.md").read_text()
    merged = _cli(
        "merge",
        str(tmp / "s1"),
        str(tmp / "s2"),
        "--out",
        str(tmp_path / "merged-known"),
        "--baseline",
        str(tmp / "known.json"),
    )
    assert merged.returncode == 0 and f"0 new, {n} known" in merged.stderr, merged.stderr


@pytest.mark.parametrize(
    "args,says",
    [
        (("--shard", "3/2"), "--shard '3/2'"),
        (("--baseline", "{tmp}/nope.json"), "cannot read"),
        (("--baseline", str(PLANTED)), "not JSON"),
        (("--baseline", "{tmp}/findings.json"), "a finding baseline"),
    ],
    ids=["shard-3-of-2", "baseline-missing", "baseline-not-json", "baseline-of-findings"],
)
def test_bad_shard_and_baseline_input_is_one_line_exit_2(tmp_path, args, says):
    (tmp_path / "findings.json").write_text('{"known": []}')
    r = _hunt(tmp_path / "bad", *(a.format(tmp=tmp_path) for a in args), budget="1items")
    assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1 and not (tmp_path / "bad").exists()


@pytest.mark.parametrize(
    "dirs,says",
    [
        (("s1",), "missing shard(s) 2/2"),
        (("s1", "s1"), "given twice"),
        (("s1", "whole"), "shards of different counts"),
        (("s1", str(PLANTED.parent)), "not both"),
    ],
    ids=["missing-shard", "given-twice", "different-counts", "not-a-hunt"],
)
def test_bad_merge_input_is_one_line_exit_2(runs, tmp_path, dirs, says):
    tmp, *_ = runs
    r = _cli("merge", *(str(tmp / d) for d in dirs), "--out", str(tmp_path / "m-bad"))
    assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_a_partial_merge_is_allowed_and_says_what_is_missing(runs, tmp_path):
    tmp, *_ = runs
    r = _cli("merge", str(tmp / "s1"), "--allow-partial", "--out", str(tmp_path / "m-partial"))
    assert r.returncode in (0, 1) and "partial merge: missing shard(s) 2/2" in r.stderr, r.stderr
