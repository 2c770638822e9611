"""Units and shards; the matrix view's differences; merging shard folders (synthetic records)."""

import json

import pytest

from passcheck.errors import PasscheckError
from passcheck.matrix import plan, report
from passcheck.matrix.merge import merge
from passcheck.records import CellResult, Finding

CASES = [
    plan.ModelCase(
        f"fam/c{i}", {"common": {"file": "a", "sha256": "1"}, "odd": {"file": "b", "sha256": "2"}}, ("p1", "p2")
    )
    for i in range(5)
]
ENVS = ["e1", "e2", "e3"]


@pytest.mark.parametrize("n", [1, 2, 3, 7, 45, 50])
def test_shards_partition_the_units_deterministically(n):
    units = plan.units(CASES, ENVS)
    parts = [plan.shard(units, i, n) for i in range(1, n + 1)]
    assert [u for p in parts for u in p] == units
    assert max(map(len, parts)) - min(map(len, parts)) <= 1
    assert parts == [plan.shard(plan.units(CASES, ENVS), i, n) for i in range(1, n + 1)]


def test_units_put_input_first_and_keep_forms_together():
    u = plan.units(CASES[:1], ["e1"])
    assert [x.pass_id for x in u] == ["input", "p1", "p2"] and u[1].forms == ("common", "odd")


@pytest.mark.parametrize("bad", ["0/2", "3/2", "1", "a/b", ""])
def test_bad_shard_text(bad):
    with pytest.raises(PasscheckError):
        plan.parse_shard(bad)


def _cell(env, form, found=False, status="changed", case="fam/c0", pass_id="p1"):
    f = (
        [
            Finding(
                "rejected",
                "acceptance",
                case,
                form,
                pass_id,
                "declined: boom",
                env=env,
                repro=f"passcheck matrix --env {env}",
            )
        ]
        if found
        else []
    )
    return CellResult(case, form, pass_id, status, env=env, error="boom" if found else None, findings=f)


def test_ok_here_failing_there_is_a_headline_naming_error_and_env():
    cells = [
        _cell("e1", "odd", found=True),
        _cell("e2", "odd"),
        _cell("e3", "odd", status="skipped"),
        _cell("e1", "common"),
        _cell("e2", "common"),
    ]
    diffs = report.differences(cells)
    assert len(diffs) == 1 and diffs[0].headline
    d = diffs[0]
    assert (d.case, d.form, d.pass_id) == ("fam/c0", "odd", "p1")
    assert d.why == {"e1": "declined: boom"} and "--env e1" in d.repro["e1"]
    md = report.render_markdown(cells, {"e1": {"onnx": "1"}, "e2": {}, "e3": {}})
    assert "**headline**" in md and "| `fam/c0` | odd | `p1` | rejected | ok | skip |" in md


def _named(env, pass_id, found, why="declined: boom"):
    """A cell whose finding's message names its pass, as an adapter's error text does."""
    f = [Finding("rejected", "acceptance", "fam/c0", "odd", pass_id, f"{pass_id} {why}", env=env)] if found else []
    return CellResult("fam/c0", "odd", pass_id, "changed", env=env, findings=f)


def test_rows_saying_the_same_under_several_passes_print_once():
    # a level and two config-keyed variants fail alike on e1 (the message names each pass), a
    # third variant fails otherwise, a fourth pass fails on e2: three rows, the first naming two more
    cells = [_named("e1", p, True) for p in ("lvl", "lvl+a=1", "lvl+b=1")]
    cells += [_named("e1", "lvl+c=1", True, why="declined: another error")]
    cells += [_named("e1", "other", False), _named("e2", "other", True)]
    cells += [_named("e2", p, False) for p in ("lvl", "lvl+a=1", "lvl+b=1", "lvl+c=1")]
    diffs = report.differences(cells)
    assert len(diffs) == 5 and all(d.headline for d in diffs)
    rows = report.merged(diffs)
    assert [(d.pass_id, others) for d, others in rows] == [
        ("lvl", ["lvl+a=1", "lvl+b=1"]),
        ("lvl+c=1", []),
        ("other", []),
    ]
    md = report.render_markdown(cells, {"e1": {}, "e2": {}})
    assert md.count("**headline**") == 3 and "(the same under 2 more: lvl+a=1, lvl+b=1)" in md
    from rich.console import Console

    console = Console(record=True, width=400)
    report.render_terminal(cells, {"e1": {}, "e2": {}}, console, tables=False)
    text = console.export_text()
    assert text.count("HEADLINE") == 3 and "fam/c0 | odd | lvl: rejected on e1; ok on e2 (the same under 2 more" in text
    assert "5 rows differ across environments (5 headlines)" in text


def test_same_verdict_everywhere_is_no_difference():
    cells = [_cell(e, "odd", found=True) for e in ENVS]
    assert report.differences(cells) == []


def _folder(path, cells, models, shard=1, plan_hash="h"):
    path.mkdir()
    plan_rec = {"hash": plan_hash, "shard": shard, "shards": 2, "cells": 4, "shard_cells": len(cells)}
    report.write_all(
        path,
        cells,
        {c.env: {"onnx": "x"} for c in cells},
        {"environments": [{"id": c.env} for c in cells], "shard": f"{shard}/2", "models": models, "plan": plan_rec},
    )


def test_merge_joins_shards_and_refuses_different_bytes(tmp_path):
    _folder(tmp_path / "s1", [_cell("e1", "odd", found=True), _cell("e1", "common")], {"fam/c0": {"odd": "2"}})
    _folder(tmp_path / "s2", [_cell("e2", "odd"), _cell("e2", "common")], {"fam/c0": {"odd": "2"}}, shard=2)
    cells, envs, meta = merge([tmp_path / "s1", tmp_path / "s2"])
    assert len(cells) == 4 and set(envs) == {"e1", "e2"} and meta["shards"] == ["1/2", "2/2"]
    assert report.differences(cells)[0].headline
    _folder(tmp_path / "s3", [_cell("e3", "odd")], {"fam/c0": {"odd": "3"}})
    with pytest.raises(PasscheckError, match="different model bytes"):
        merge([tmp_path / "s1", tmp_path / "s3"])
    with pytest.raises(PasscheckError, match="no report.json"):
        merge([tmp_path / "nothing"])
    doc = json.loads((tmp_path / "s1" / "report.json").read_text())
    assert doc["matrix"]["differences"] == [] and len(doc["results"]) == 2
