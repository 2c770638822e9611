"""Baselines per environment (``envs``), their status (occurs / fixed / not run), and merge
refusing missing shards, incomplete shards and mismatched plans (synthetic shard folders)."""

import json

import pytest

from passcheck.cli import main
from passcheck.errors import PasscheckError
from passcheck.matrix import report
from passcheck.matrix.merge import merge
from passcheck.records import CellResult, Finding
from passcheck.report import baseline

ID = "fam/c0:odd|p1|acceptance|rejected"


def _cell(env, found, form="odd", status="changed"):
    f = [Finding("rejected", "acceptance", "fam/c0", form, "p1", "declined: boom", env=env)] if found else []
    return CellResult("fam/c0", form, "p1", status, env=env, findings=f)


def _write(tmp_path, entries):
    p = tmp_path / "known.json"
    p.write_text(json.dumps({"known": entries}))
    return p


def test_entry_with_envs_matches_only_there(tmp_path):
    known = baseline.load(_write(tmp_path, [{"id": ID, "reason": "old onnx", "envs": ["e1"]}]))
    cells = [_cell("e1", True), _cell("e2", True)]
    assert baseline.apply(cells, known) == []
    assert [c.verdict for c in cells] == ["expected", "findings"]


def test_file_without_envs_loads_and_matches_every_env_including_local(tmp_path):
    known = baseline.load(_write(tmp_path, [{"id": "fam/*", "reason": "r", "link": "u"}]))
    assert known[0].envs is None
    cells = [_cell("e1", True), _cell("local", True)]
    baseline.apply(cells, known)
    assert all(c.verdict == "expected" for c in cells) and cells[0].findings[0].reason == "r (u)"


@pytest.mark.parametrize("envs", [[], "e1", [1], [""]])
def test_bad_envs_is_a_clear_error(tmp_path, envs):
    with pytest.raises(PasscheckError, match="'envs' must be a non-empty list"):
        baseline.load(_write(tmp_path, [{"id": ID, "reason": "r", "envs": envs}]))


def test_status_says_where_an_entry_occurs_is_fixed_and_did_not_run():
    k = baseline.Known(ID, "r")
    cells = [
        _cell("e1", True),
        _cell("e2", False),
        _cell("e3", False, status="skipped"),
        _cell("e4", False, form="common"),
    ]
    (s,) = baseline.status(cells, [k], ["e1", "e2", "e3", "e4", "e5"])
    assert (s.occurs, s.fixed, s.not_run) == (("e1",), ("e2",), ("e3", "e4", "e5"))
    (s,) = baseline.status(cells, [baseline.Known(ID, "r", envs=("e2",))], ["e1", "e2"])
    assert (s.occurs, s.fixed, s.not_run) == ((), ("e2",), ())


def test_written_baseline_lists_envs_unless_everywhere():
    fs = [f for c in (_cell("e1", True), _cell("e2", True)) for f in c.findings]
    fs.append(Finding("wrong-result", "numeric", "fam/c1", "odd", "p1", "x", env="e2"))
    doc = json.loads(baseline.from_findings(fs, environments=["e1", "e2"]))
    assert doc["known"] == [
        {"id": ID, "reason": "known at baseline creation"},
        {"id": "fam/c1:odd|p1|numeric|wrong-result", "reason": "known at baseline creation", "envs": ["e2"]},
    ]


def _shard(path, cells, shard, shards=2, plan_hash="abc", planned=None):
    path.mkdir()
    plan = {"hash": plan_hash, "shard": shard, "shards": shards, "cells": 4, "shard_cells": planned or len(cells)}
    report.write_all(
        path,
        cells,
        {c.env: {"onnx": "x"} for c in cells},
        {"environments": [{"id": "e1"}, {"id": "e2"}], "shard": f"{shard}/{shards}", "models": {}, "plan": plan},
    )


def test_merge_refuses_a_missing_shard_unless_allowed(tmp_path, capfd):
    _shard(tmp_path / "a", [_cell("e1", True), _cell("e1", False, form="common")], 1)
    with pytest.raises(PasscheckError, match=r"missing shard\(s\) 2/2 of plan abc \(4 cells\)"):
        merge([tmp_path / "a"])
    assert main(["merge", str(tmp_path / "a"), "--out", str(tmp_path / "m"), "-q"]) == 2
    err = capfd.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "missing shard(s) 2/2" in err[0] and "--allow-partial" in err[0]
    assert main(["merge", str(tmp_path / "a"), "--out", str(tmp_path / "m"), "-q", "--allow-partial"]) == 1
    out, err = capfd.readouterr()
    assert "warning: partial merge: missing shard(s) 2/2" in err and "2 cells of 4 planned (PARTIAL)" in out
    assert json.loads((tmp_path / "m" / "report.json").read_text())["matrix"]["partial"].startswith("missing shard")
    assert "**PARTIAL: missing shard(s) 2/2" in (tmp_path / "m" / "report.md").read_text()


def test_merge_refuses_mismatched_plans_and_incomplete_shards(tmp_path):
    _shard(tmp_path / "a", [_cell("e1", False)], 1)
    _shard(tmp_path / "b", [_cell("e2", False)], 2, plan_hash="other")
    with pytest.raises(PasscheckError, match=r"mismatched plans: plan abc in .*a; plan other in .*b"):
        merge([tmp_path / "a", tmp_path / "b"])
    _shard(tmp_path / "c", [_cell("e2", False)], 2, planned=2)
    with pytest.raises(PasscheckError, match=r"incomplete shard\(s\): .*c \(shard 2/2: 1 of 2 cells\)"):
        merge([tmp_path / "a", tmp_path / "c"])
    _shard(tmp_path / "d", [_cell("e2", False), _cell("e2", False, form="common")], 2, planned=2)
    cells, _, meta = merge([tmp_path / "a", tmp_path / "c", tmp_path / "d"])  # a retried shard completes it
    assert len(cells) == 3 and "partial" not in meta


def test_merge_with_a_per_env_baseline_reports_fixed_envs(tmp_path, capfd):
    _shard(tmp_path / "a", [_cell("e1", True)], 1)
    _shard(tmp_path / "b", [_cell("e2", False)], 2)
    known = _write(tmp_path, [{"id": ID, "reason": "r", "envs": ["e1", "e2"]}])
    assert (
        main(
            [
                "merge",
                str(tmp_path / "a"),
                str(tmp_path / "b"),
                "--out",
                str(tmp_path / "m"),
                "-q",
                "--baseline",
                str(known),
            ]
        )
        == 0
    )
    assert "baseline entry fixed on e2 (still on e1): " + ID in capfd.readouterr().out
    entry = json.loads((tmp_path / "m" / "report.json").read_text())["matrix"]["baseline"]["entries"][0]
    assert entry["occurs"] == ["e1"] and entry["fixed"] == ["e2"]
    narrow = _write(tmp_path, [{"id": ID, "reason": "r", "envs": ["e2"]}])
    assert (
        main(
            [
                "merge",
                str(tmp_path / "a"),
                str(tmp_path / "b"),
                "--out",
                str(tmp_path / "m"),
                "-q",
                "--baseline",
                str(narrow),
            ]
        )
        == 1
    )


def test_merge_with_an_unusable_environment_is_not_green(tmp_path, capfd):
    for i, env in ((1, "e1"), (2, "e2")):
        (tmp_path / f"s{i}").mkdir()
        report.write_all(
            tmp_path / f"s{i}",
            [_cell(env, False, status="unavailable")],
            {env: {"error": "uv failed"}},
            {
                "environments": [{"id": env}],
                "shard": f"{i}/2",
                "models": {},
                "plan": {"hash": "abc", "shard": i, "shards": 2, "cells": 2, "shard_cells": 1},
            },
        )
    assert main(["merge", str(tmp_path / "s1"), str(tmp_path / "s2"), "--out", str(tmp_path / "m"), "-q"]) == 2
    assert "environment(s) e1, e2 could not be used" in capfd.readouterr().err


def test_a_written_baseline_is_one_key_a_line_indented_by_one_space():
    """The text a baseline file is written as (a file users commit and edit by hand): JSON, each key on a
    line of its own, indented by one space. Kills ``indent=1`` → ``indent=2`` in ``from_findings``."""
    (f,) = _cell("e1", True).findings
    assert baseline.from_findings([f]) == (
        '{\n "known": [\n  {\n   "id": "fam/c0:odd|p1|acceptance|rejected",\n'
        '   "reason": "known at baseline creation"\n  }\n ]\n}\n'
    )
