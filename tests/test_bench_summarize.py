"""``bench/mutation_score.py --summarize``: one count per mutant, its newest row, whatever key it was judged
under; with ``--report``, the markdown part with the mutants of the selective set that have no row."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_bench_scripts import ROOT, _bench


def _row(key: str, occurrence: int, outcome: str) -> dict:
    return {
        "key": key,
        "module": "passcheck/runtime/graph_index.py",
        "line": 10,
        "operator": "core/NumberReplacer",
        "occurrence": occurrence,
        "outcome": outcome,
        "seconds": 2.0,
        "before": "a",
        "after": "b",
        "run": "2026-12-03 abc",
        "module_sha": _bench("mutation_results").Hasher(ROOT).file("passcheck/runtime/graph_index.py"),
    }


def _write(path: Path, rows: list[dict]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_a_mutant_judged_again_under_a_new_key_counts_once_with_its_newest_verdict(tmp_path, capsys):
    # mutant 0: survived under its old key (tests since changed), killed under the new one; mutant 1: killed
    results = tmp_path / "results.jsonl"
    _write(results, [_row("old", 0, "survived"), _row("k1", 1, "killed"), _row("new", 0, "killed")])
    ms = _bench("mutation_score")
    code = ms.main(["--summarize", str(results), "--survivors", str(tmp_path / "s.tsv"), "--target", "1.0"])
    out = capsys.readouterr().out
    assert "killed ratio: 2/2 = 100.0%" in out and code == 0
    assert "2 mutants with a row judged on their module's current content (3 rows" in out
    assert (tmp_path / "s.tsv").read_text().count("\n") == 1  # the header only: no survivor left

    # the newest row wins in file order, whichever outcome it has
    _write(results, [_row("new", 0, "killed"), _row("k1", 1, "killed"), _row("newer", 0, "survived")])
    assert ms.main(["--summarize", str(results), "--survivors", str(tmp_path / "s.tsv")]) == 1
    assert "killed ratio: 1/2 = 50.0%" in capsys.readouterr().out


def test_a_summary_report_counts_the_selective_mutants_without_a_row_per_module(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # --paths are relative to the checkout
    results, report = tmp_path / "results.jsonl", tmp_path / "score.md"
    _write(results, [_row("k0", 0, "killed"), _row("k1", 1, "survived")])
    report.write_text("# Score\n\nhand-written history\n")
    ms = _bench("mutation_score")
    argv = ["--summarize", str(results), "--paths", "passcheck/runtime/graph_index.py"]
    argv += ["--survivors", str(tmp_path / "s.tsv"), "--markdown", str(report), "--stale-list", str(tmp_path / "l.tsv")]
    ms.main(argv)
    out = capsys.readouterr().out
    groups, scopes = ms._groups(ms._args(argv))
    found, _, _ = ms._enumerate(groups, scopes)
    selective = ms.mutation_select.selective([s for s, _ in found])
    rowed = sum(
        1
        for s in selective
        if (s.operator_name, int(s.occurrence)) in {("core/NumberReplacer", 0), ("core/NumberReplacer", 1)}
    )
    missing = len(selective) - rowed
    assert f"{missing} of {len(selective)} mutants of the selective set have no row" in out
    assert len((tmp_path / "l.tsv").read_text().splitlines()) == 1 + missing  # the ones to judge, for --rerun
    text = report.read_text()
    assert "hand-written history" in text and "python bench/mutation_score.py --summarize" in text
    line = next(x for x in text.splitlines() if x.startswith("| `passcheck/runtime/graph_index.py`"))
    cells = [c.strip() for c in line.strip("|").split("|")]
    assert cells[1] == "1" and cells[3] == "1" and cells[8] == str(missing)  # killed, survived, no result


def test_a_row_judged_on_other_content_of_its_module_is_stale_listed_and_not_counted(tmp_path, capsys):
    """A row counts only while its module is what it was judged on (its ``module_sha``; for an older row
    without one, the module at its run's commit); the others are stale: not counted, listed, and the
    command that judges only them is printed."""
    results, listed = tmp_path / "results.jsonl", tmp_path / "stale.tsv"
    edited = _row("k2", 2, "killed") | {"module_sha": "0123456789abcdef"}  # the module changed since
    unknown = _row("k3", 3, "survived") | {"run": "2026-12-03 af77c04a1b2c+"}
    del unknown["module_sha"]  # an older row from a tree with changes: what it was judged on is unknown
    _write(results, [_row("k0", 0, "killed"), _row("k1", 1, "survived"), edited, unknown])
    ms = _bench("mutation_score")
    argv = ["--summarize", str(results), "--survivors", str(tmp_path / "s.tsv"), "--stale-list", str(listed)]
    ms.main(argv)
    out = capsys.readouterr().out
    assert "killed ratio: 1/2 = 50.0%" in out  # k0 and k1 only
    assert "stale: 2 mutants whose newest row was judged on other content of their module" in out
    assert f"judge only them: python bench/mutation_score.py --rerun {listed}" in out
    rows = [line.split("\t") for line in listed.read_text().splitlines()[1:]]
    assert [(r[0], r[3]) for r in rows] == [
        ("passcheck/runtime/graph_index.py", "2"),
        ("passcheck/runtime/graph_index.py", "3"),
    ]


def test_an_older_row_counts_when_its_run_commit_holds_the_modules_current_content(tmp_path, capsys):
    """Rows written before rows had a ``module_sha``: the module at the commit of their run decides."""
    mr = _bench("mutation_results")
    module = "passcheck/runtime/graph_index.py"
    same = mr.subprocess.run(
        ["git", "log", "-1", "--format=%h", "--abbrev=12", "--", module],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    before = mr.subprocess.run(
        ["git", "log", "-1", "--format=%h", "--abbrev=12", f"{same}~1", "--", module],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert mr.judged_on({"module": module, "run": f"2026-12-03 {same}"}) == mr.Hasher(ROOT).file(module)
    assert mr.judged_on({"module": module, "run": f"2026-12-03 {before}"}) not in (None, mr.Hasher(ROOT).file(module))
    assert mr.judged_on({"module": module, "run": f"2026-12-03 {same}+"}) is None
