"""The mutation-score inputs stay true to the tree: the module → tests map, the equivalent
mutants' lines, the re-planted verdict bugs (bench/mutation_score.py, bench/plant_verdicts.py)."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"


def _bench(name: str):
    if str(BENCH) not in sys.path:
        sys.path.insert(0, str(BENCH))
    spec = importlib.util.spec_from_file_location(f"_bench_{name}", BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


#: The verdict code issue 29 names: every one must be mutated, with tests of its own.
VERDICT_CODE = [
    "passcheck/oracles/validity.py",
    "passcheck/runtime/observe.py",
    "passcheck/report/rootcause.py",
    "passcheck/report/baseline.py",
    "passcheck/signature.py",
    "passcheck/hunt/signature.py",
    "passcheck/reduce/predicates.py",
    "passcheck/passes/isolation.py",
]


def test_the_mutation_map_names_existing_modules_and_tests_and_covers_the_verdict_code():
    mm = _bench("mutation_map")
    entries = mm.load()
    assert mm.problems(entries) == []
    for module in VERDICT_CODE:
        assert mm.entry_for(module, entries) is not None, module
    mutated = mm.files([e.path for e in entries])
    assert set(VERDICT_CODE) <= set(mutated) and "passcheck/oracles/parity.py" in mutated
    # The longest path wins: the report modules do not fall under a folder entry's tests.
    assert mm.entry_for("passcheck/report/rootcause.py", entries).path == "passcheck/report/rootcause.py"
    assert mm.entry_for("passcheck/report/render.py", entries) is None


def test_only_restricts_the_mutants_to_the_named_definitions(tmp_path):
    mm = _bench("mutation_map")
    source = "import x\n\n\nclass A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n"
    assert mm.scope_lines(source, ()) is None
    assert mm.scope_lines(source, ["A.g"]) == {8, 9}
    with pytest.raises(ValueError, match="defines no 'A.h'"):
        mm.scope_lines(source, ["A.h"])
    bad = mm.Entry("passcheck/passes/isolation.py", ("tests/nowhere.py",), ("NoSuchThing",))
    assert mm.problems([bad]) == [
        "passcheck/passes/isolation.py: no test target tests/nowhere.py",
        "passcheck/passes/isolation.py: defines no 'NoSuchThing'",
    ]


def test_every_equivalent_mutant_has_a_reason_and_its_line_is_still_in_its_module():
    """An entry matches on the changed line's text: once that line changes it no longer applies,
    and this test fails until the entry is checked again (rewritten or dropped)."""
    ms = _bench("mutation_score")
    raw = ms.tomllib.loads((BENCH / "mutation_equivalent.toml").read_text())["equivalent"]
    assert raw
    for e in raw:
        assert e["reason"].strip() and "\n" not in e["reason"], e
        lines = {line.strip() for line in (ROOT / e["module"]).read_text().splitlines()}
        assert e["before"].strip() in lines, f"{e['module']}: the line of an equivalent mutant changed: {e['before']!r}"
        if "context" in e:
            assert e["context"] in lines, e


def test_an_equivalent_entry_stops_matching_when_its_line_changes():
    ms = _bench("mutation_score")
    table = ms._equivalent(BENCH / "mutation_equivalent.toml")
    (module, operator, before, after), ((context, reason), *_) = next(iter(table.items()))
    diff = f"--- a\n+++ b\n@@ -1,2 +1,2 @@\n {context or 'x = 1'}\n-    {before}\n+    {after}\n"
    assert ms._reason(table, (module, operator, before, after), diff) == reason
    changed = before.replace("(", "( ", 1) if "(" in before else before + " "
    assert ms._reason(table, (module, operator, changed, after), diff) == ""


def test_every_planted_verdict_bug_still_applies():
    assert _bench("plant_verdicts").missing() == []


def test_a_mutant_inside_an_annotation_never_evaluated_is_recognised_by_its_position():
    mm = _bench("mutation_map")
    body = "def f(a: int | None = 1) -> str | None:\n    b: int | None = a | 2\n    return b\n"
    spans = mm.annotation_spans("from __future__ import annotations\n" + body)
    # cosmic-ray's positions: 1-based lines, 0-based columns, end exclusive (the `|` it would replace).
    line2 = "def f(a: int | None = 1) -> str | None:"
    assert mm.in_annotation(spans, (2, line2.index("|")), (2, line2.index("|") + 1))
    assert mm.in_annotation(spans, (2, line2.rindex("|")), (2, line2.rindex("|") + 1))
    assert mm.in_annotation(spans, (3, 11), (3, 12))  # b: int | None
    assert not mm.in_annotation(spans, (3, 22), (3, 23))  # a | 2: evaluated
    assert not mm.in_annotation(spans, (2, line2.index("1")), (2, line2.index("1") + 1))  # the default value
    assert mm.annotation_spans(body) == []  # annotations evaluated at definition time: none is skipped


def test_the_selective_operator_set_keeps_three_replacements_per_relational_operator_and_a_number_once(tmp_path):
    sel = _bench("mutation_select")
    for op, kept in [("Gt", {"GtE", "NotEq"}), ("Eq", {"LtE", "GtE", "NotEq"}), ("Is", {"IsNot"})]:
        found = {n.rsplit("_", 1)[1] for n in sel.SELECTIVE if n.startswith(f"core/ReplaceComparisonOperator_{op}_")}
        assert found == kept, op
    assert {n for n in sel.SELECTIVE if n.startswith("core/ReplaceBinaryOperator_Add_")} == {
        "core/ReplaceBinaryOperator_Add_Sub",
        "core/ReplaceBinaryOperator_Add_Mul",
    }
    spec = lambda op, pos: type("Spec", (), {"operator_name": op, "module_path": "m.py", "start_pos": pos})()
    specs = [
        spec("core/NumberReplacer", (3, 4)),
        spec("core/NumberReplacer", (3, 4)),
        spec("core/NumberReplacer", (5, 0)),
    ]
    specs += [spec("core/ReplaceComparisonOperator_Eq_Is", (1, 0)), spec("core/RemoveDecorator", (1, 0))]
    assert [s.start_pos for s in sel.selective(specs)] == [(3, 4), (5, 0)]
    # not (a < b) is a >= b: subsumed by the comparison's own mutants; a bare condition keeps AddNot
    (tmp_path / "m.py").write_text("if a < b:\n    pass\nif a:\n    pass\n")
    add_not = lambda start, end: type(
        "Spec", (), {"operator_name": "core/AddNot", "module_path": "m.py", "start_pos": start, "end_pos": end}
    )()
    kept = sel.selective([add_not((1, 3), (1, 8)), add_not((3, 3), (3, 4))], root=tmp_path)
    assert [s.start_pos for s in kept] == [(3, 3)]
    # an equality with a string constant has no order: its negation only
    (tmp_path / "k.py").write_text("if kind == 'tensor_type':\n    pass\n")
    ror = lambda op: type(
        "Spec",
        (),
        {"operator_name": f"core/ReplaceComparisonOperator_Eq_{op}", "module_path": "k.py", "start_pos": (1, 8)},
    )()
    kept = sel.selective([ror("LtE"), ror("GtE"), ror("NotEq")], root=tmp_path)
    assert [s.operator_name for s in kept] == ["core/ReplaceComparisonOperator_Eq_NotEq"]


def test_a_mutant_runs_the_tests_covering_its_statement_fastest_first(tmp_path):
    sel = _bench("mutation_select")
    module = "bench/mutation_select.py"  # any module of the checkout: the selector reads its statements
    source = (ROOT / module).read_text().splitlines()
    call = next(i for i, line in enumerate(source, 1) if line.strip() == "subprocess.run(")
    found = {
        "tests": {"t::slow": 9.0, "t::fast": 0.5, "t::other": 0.1},
        "lines": {module: {str(call): ["t::slow"], str(call + 1): ["t::fast"], "1": [""]}},
    }
    s = sel.Selector(found)
    # a statement spread over several lines: the tests of every line of it, fastest first
    assert s.tests(module, call) == ["t::fast", "t::slow"]
    assert s.tests(module, 1) is None  # import time only: the module's whole selection
    assert s.tests(module, len(source)) == []  # nothing runs it: a survivor without a run


IMPORT_TIME = """import dataclasses


def _table():
    return [_row(1)]  # line 5


def _row(n):
    def later():
        return n + 1  # line 10: runs when called
    return (n, later)  # line 11


def checked(x):
    return x > 0  # line 15


@dataclasses.dataclass(
    frozen=True,  # line 19
)
class Plan:
    size: int = 3  # line 22


TABLE = _table()
"""


def test_a_statement_import_time_code_runs_gets_the_module_selection_not_its_first_importer(tmp_path):
    """A class decorator's lines, a class body, and the body of a function module-level code calls (a
    table built by a helper, through another) run when the module is imported: coverage gives them to
    the test that first imported it, so they run the module's whole selection (None)."""
    sel = _bench("mutation_select")
    module = tmp_path / "m.py"
    module.write_text(IMPORT_TIME)
    importer, checker = "tests/a/test_a.py::first", "tests/a/test_a.py::checks"
    found = {
        "tests": {importer: 0.1, checker: 0.2},
        "lines": {str(module): {str(n): [importer] for n in (5, 11, 18, 19, 22)} | {"10": [checker], "15": [checker]}},
    }
    s = sel.Selector(found)
    assert [s.tests(str(module), n) for n in (5, 11, 18, 19, 22)] == [None] * 5
    assert s.tests(str(module), 10) == [checker] and s.tests(str(module), 15) == [checker]
    # the two the seed-2 rerun met: spec_table's reduce rules (built by a helper) and a frozen plan
    table = sel.statement_lines((ROOT / "passcheck/oracles/spec_table.py").read_text())
    src = (ROOT / "passcheck/oracles/spec_table.py").read_text().splitlines()
    axes = next(i for i, line in enumerate(src, 1) if "axes_in_range(None, 1), _REDUCED" in line)
    assert table[axes][1] is False
    plan = (ROOT / "passcheck/runtime/plan.py").read_text()
    frozen = next(i for i, line in enumerate(plan.splitlines(), 1) if line == "@dataclasses.dataclass(frozen=True)")
    assert sel.statement_lines(plan)[frozen][1] is False


def test_a_map_is_updated_by_running_again_only_the_test_files_added_or_changed(tmp_path):
    """``load_or_build``'s update: a changed test file's old contexts go, its new ones come; the other
    files' contexts and the import-time context stay; a test file of a new target is a changed file."""
    sel = _bench("mutation_select")
    for rel, text in [("passcheck/m.py", "x = 1\n"), ("tests/a/test_one.py", "1"), ("tests/b/test_two.py", "2")]:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    base, files = sel.source_parts(tmp_path, ["tests/a"], ["passcheck/m.py"])
    assert list(files) == ["tests/a/test_one.py"]
    (tmp_path / "tests/a/test_one.py").write_text("1 changed")
    base2, files2 = sel.source_parts(tmp_path, ["tests/a", "tests/b/test_two.py"], ["passcheck/m.py"])
    assert base2 == base and sorted(files2) == ["tests/a/test_one.py", "tests/b/test_two.py"]
    assert files2["tests/a/test_one.py"] != files["tests/a/test_one.py"]
    (tmp_path / "passcheck/m.py").write_text("x = 2\n")
    assert sel.source_parts(tmp_path, ["tests/a"], ["passcheck/m.py"])[0] != base  # the code changed: rebuild

    one, two, kept = "tests/a/test_one.py::t", "tests/b/test_two.py::t", "tests/c/test_three.py::t"
    old = {"tests": {one: 1.0, kept: 2.0}, "lines": {"m.py": {"3": [one, kept], "4": [one], "1": [""]}}}
    new = {"tests": {one: 0.5, two: 0.1}, "lines": {"m.py": {5: [one], 3: [two]}}}
    got = sel.merged(old, new, {"tests/a/test_one.py", "tests/b/test_two.py"})
    assert got["tests"] == {one: 0.5, two: 0.1, kept: 2.0}
    assert got["lines"] == {"m.py": {"3": [two, kept], "1": [""], "5": [one]}}  # line 4: no test runs it now


def test_a_mutant_whose_tests_are_slow_by_nature_gets_time_in_proportion_before_it_counts_as_killed(tmp_path):
    """A timeout counts as killed: a floor alone would count a surviving mutant whose covering tests
    take longer than it as killed. Its limit is also ``factor`` × its tests' seconds in the map."""
    ms, run = _bench("mutation_score"), _bench("mutation_run")
    sel = _bench("mutation_select")
    module = "bench/mutation_select.py"
    source = (ROOT / module).read_text().splitlines()
    call = next(i for i, line in enumerate(source, 1) if line.strip() == "subprocess.run(")
    found = {
        "tests": {"tests/a/test_x.py::slow": 200.0, "tests/a/test_x.py::fast": 1.0, "tests/b/test_y.py::t": 7.0},
        "lines": {module: {str(call): ["tests/a/test_x.py::slow", "tests/a/test_x.py::fast"], "1": [""]}},
    }
    spec = lambda line: type(
        "Spec", (), {"module_path": module, "start_pos": (line, 0), "operator_name": "core/AddNot", "occurrence": 0}
    )()
    covered, imported = ms._mutants([(spec(call), ("tests/a",)), (spec(1), ("tests/a",))], sel.Selector(found), "")
    assert covered.budget == 201.0 and imported.budget == 201.0  # the module's selection: tests/a only
    runner = run.Runner(ROOT, tmp_path / "w", 0, timeout=300.0, copy=lambda dest: None, factor=3.0)
    assert runner.limit(covered) == 603.0
    assert runner.limit(run.Mutant(module, 1, "core/AddNot", 0, ["t"], budget=10.0)) == 300.0  # the floor


HANGING_TEST = """
import os, subprocess, sys, time
from pathlib import Path


def test_hangs():
    # a grandchild in a session of its own, as an isolation worker is
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    Path(os.environ["HANG_PIDS"]).write_text(f"{os.getpid()} {child.pid}")
    time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    status = Path(f"/proc/{pid}/status")
    return not (status.exists() and "\\nState:\\tZ" in status.read_text())


def _tiny_runner(tmp_path, module: str, test: tuple[str, str], warm: bool):
    """A Runner over a one-tree copy of a folder holding ``m.py`` (``module``) and one test file."""
    run = _bench("mutation_run")
    root = tmp_path / "root"
    root.mkdir()
    (root / "m.py").write_text(module)
    (root / test[0]).write_text(test[1])
    copy = lambda dest: [shutil.copy2(f, dest / f.name) for f in root.iterdir()]
    return run, run.Runner(root, tmp_path / "work", 1, timeout=600, copy=copy, warm=warm)


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_stopping_a_run_kills_every_test_command_and_what_it_started(tmp_path, monkeypatch, warm):
    """Ctrl-C / SIGTERM end in ``Runner.stop``: the pytest process of each running mutant and every
    process it started, in its own session or not, are killed, and the run returns; with ``warm``
    the pytest is a fork of the tree's warm server, which goes too."""
    monkeypatch.setenv("HANG_PIDS", str(tmp_path / "pids"))
    run, runner = _tiny_runner(tmp_path, "x = 1 + 1\n", ("test_hang.py", HANGING_TEST), warm)
    mutant = run.Mutant("m.py", 1, "core/ReplaceBinaryOperator_Add_Sub", 0, ["test_hang.py"])
    judging = threading.Thread(target=runner.run, args=([mutant], lambda m: None), daemon=True)
    judging.start()
    deadline = time.monotonic() + 120
    while not (tmp_path / "pids").exists() or not (tmp_path / "pids").read_text():
        assert time.monotonic() < deadline and judging.is_alive(), "the hanging test never started"
        time.sleep(0.05)
    pids = [int(p) for p in (tmp_path / "pids").read_text().split()]
    servers = [s.proc.pid for s in runner._servers.values()]
    assert len(servers) == warm
    pids += servers
    runner.stop()
    judging.join(60)
    assert not judging.is_alive()
    deadline = time.monotonic() + 30
    while any(_alive(p) for p in pids):
        assert time.monotonic() < deadline, [p for p in pids if _alive(p)]
        time.sleep(0.05)
    assert (runner.trees[0] / "m.py").read_text() == "x = 1 + 1\n"  # the pristine module is back


WARM_TEST = """
import m


def test_m():
    assert m.x == 2 and m.y == 0
"""


def test_a_warm_server_runs_each_mutant_against_the_mutated_module_of_its_tree(tmp_path):
    """The forked pytest imports the tree copy's module as mutated, not a copy the server holds: a
    mutant that changes ``x`` is killed, one that leaves ``y`` at 0 survives, the pristine module is
    back after each, and one server serves them all."""
    run, runner = _tiny_runner(tmp_path, "x = 1 + 1\ny = 0 * 5\n", ("test_m.py", WARM_TEST), True)
    mutants = [
        run.Mutant("m.py", 1, "core/ReplaceBinaryOperator_Add_Sub", 0, ["test_m.py"]),
        run.Mutant("m.py", 2, "core/ReplaceBinaryOperator_Mul_Div", 0, ["test_m.py"]),
        run.Mutant("m.py", 1, "core/ReplaceBinaryOperator_Add_Mul", 0, ["test_m.py"]),
    ]
    started = []
    runner.run(mutants, lambda m: started.extend(s.proc.pid for s in runner._servers.values()))
    assert [m.outcome for m in mutants] == ["killed", "survived", "killed"]
    assert [m.killer for m in mutants] == ["test_m.py::test_m", "", "test_m.py::test_m"]  # the failing test, named
    assert len(set(started)) == 1 and not _alive(started[0])  # one server for all, ended with the run
    assert (runner.trees[0] / "m.py").read_text() == "x = 1 + 1\ny = 0 * 5\n"


def test_a_run_reuses_the_results_whose_key_is_unchanged_and_judges_only_the_rest(tmp_path, capsys, monkeypatch):
    """``--results`` of an earlier run: a mutant with a row under its current key is not judged again and
    counts in the table; a row of the same mutant under another key (another module content, test files
    or tool versions) counts nowhere: its mutant is stale, listed, and ``--stale`` judges only such
    mutants; a mutant without a row of its key is judged and gets one, with its module's content hash."""
    import json
    import random

    monkeypatch.chdir(ROOT)  # the script takes --paths and --tests relative to the checkout, as its docs say

    ms = _bench("mutation_score")
    results = tmp_path / "results.jsonl"
    argv = ["--paths", "passcheck/runtime/limits.py", "--tests", "tests/runtime/test_ort_opset_limit.py"]
    argv += ["--sample", "3", "--seed", "0", "--workers", "1", "--cold", "--survivors", str(tmp_path / "s.tsv")]
    argv += ["--stale-list", str(tmp_path / "stale.tsv")]
    args = ms._args(argv)
    groups, scopes = ms._groups(args)
    found, _, _ = ms._enumerate(groups, scopes)
    kept = [(s, t) for s, t in found if id(s) in {id(x) for x in ms.mutation_select.selective([s for s, _ in found])}]
    first, second, third = ms._keyed(ms._mutants(random.Random(0).sample(kept, 3), None, args.keyword))

    def row(m, outcome, key):
        return {"key": key, "module": m.module, "operator": m.operator, "occurrence": m.occurrence, "line": m.line} | {
            "outcome": outcome,
            "seconds": 1.0,
        }

    rows = [row(first, "survived", "another-key"), row(first, "killed", first.result_key)]
    rows.append(row(second, "killed", "another-key"))
    results.write_text("".join(json.dumps(r) + "\n" for r in rows))
    ms.main([*argv, "--results", str(results), "--stale"])  # the second only: the third never had a row
    out = capsys.readouterr().out
    assert "stale: 1 mutants whose newest row was judged under another key (module, test files or tools)" in out
    assert (tmp_path / "stale.tsv").read_text().splitlines()[1].split("\t")[:4] == [
        second.module,
        str(second.line),
        second.operator,
        str(second.occurrence),
    ]
    assert "results: 0 of 1 reused" in out and "1 to judge" in out
    written = [json.loads(line) for line in results.read_text().splitlines()]
    assert written[:3] == rows and len(written) == 4  # only the second mutant was judged
    assert (second.module, second.operator, second.occurrence, second.result_key) == tuple(
        written[3][k] for k in ("module", "operator", "occurrence", "key")
    )
    assert written[3]["outcome"] in ("killed", "survived", "timeout")
    assert written[3]["module_sha"] == _bench("mutation_results").Hasher(ROOT).file(second.module)

    ms.main([*argv, "--results", str(results)])
    out = capsys.readouterr().out
    assert "stale: 0 mutants" in out and "results: 2 of 3 reused" in out and "1 to judge" in out
    assert "judged 3 (sample 3, seed 0): 2 reused, 1 run now" in out
    ms.main([*argv, "--results", str(results)])  # everything judged: nothing runs again
    assert "results: 3 of 3 reused" in capsys.readouterr().out
    assert len(results.read_text().splitlines()) == 5


def test_a_result_key_changes_with_its_module_its_test_files_and_tools_and_with_nothing_else(tmp_path):
    """The key of ``bench/mutation_results.py``: the mutated module's content, the mutant, the selected test
    files' content (their conftest.py too) and the tool versions; an unrelated file changes nothing."""
    mr = _bench("mutation_results")
    for rel, text in {
        "pkg/m.py": "x = 1\n",
        "pkg/other.py": "y = 1\n",
        "tests/conftest.py": "",
        "tests/a/test_a.py": "def test_a(): pass\n",
        "tests/b/test_b.py": "def test_b(): pass\n",
    }.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)

    def key(tests=("tests/a/test_a.py::test_a",), operator="core/AddNot", occurrence=0, tool="onnx=1", keyword=""):
        return mr.result_key(mr.Hasher(tmp_path), "pkg/m.py", operator, occurrence, list(tests), keyword, tool)

    base = key()
    assert key(("tests/a/test_a.py::test_a",)) == base == key(("tests/a/test_a.py::test_a", "tests/a/test_a.py"))
    for other in (key(occurrence=1), key(operator="core/NumberReplacer"), key(tool="onnx=2"), key(keyword="not x")):
        assert other != base
    assert key(("tests/b/test_b.py::test_b",)) != base
    (tmp_path / "pkg/other.py").write_text("y = 2\n")  # unrelated module
    (tmp_path / "tests/b/test_b.py").write_text("def test_b(): assert 0\n")  # a test file not selected
    assert key() == base
    (tmp_path / "tests/conftest.py").write_text("import os\n")
    assert key() != base
    base = key()
    (tmp_path / "tests/a/test_a.py").write_text("def test_a(): assert 1\n")
    assert key() != base
    base = key()
    (tmp_path / "pkg/m.py").write_text("x = 2\n")
    assert key() != base


def test_a_mutants_tests_run_those_that_killed_its_line_then_its_module_first(tmp_path):
    """The order hook: tests that killed mutants of the same line first, then of the same module (most kills
    first), the rest in the map's order; only the mutant's own tests, none added."""
    ms = _bench("mutation_score")
    run = _bench("mutation_run")
    rows = [
        {"module": "m.py", "line": 3, "killer": "t.py::slow"},
        {"module": "m.py", "line": 9, "killer": "t.py::mid"},
        {"module": "m.py", "line": 8, "killer": "t.py::mid"},
        {"module": "m.py", "line": 7, "killer": "t.py::fast"},
        {"module": "n.py", "line": 3, "killer": "t.py::other"},
    ]
    order = ms._order(rows)
    m = run.Mutant("m.py", 3, "core/AddNot", 0, ["t.py::fast", "t.py::other", "t.py::none", "t.py::mid", "t.py::slow"])
    order(m)
    assert m.tests == ["t.py::slow", "t.py::mid", "t.py::fast", "t.py::other", "t.py::none"]
    order.learn({"module": "m.py", "line": 3, "killer": "t.py::none"})
    order.learn({"module": "m.py", "line": 3, "killer": "t.py::none"})
    order(m)
    assert m.tests[:2] == ["t.py::none", "t.py::slow"]


@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_bytecode_is_kept_but_a_mutants_pyc_never_serves_the_next_mutant_of_its_module(tmp_path, monkeypatch, warm):
    """The tree copy keeps bytecode (a test file compiled once serves every mutant), but Python trusts a pyc
    on its source's mtime in whole seconds and size: two mutants of one line, of equal length, written
    within one second (forced here: every mutated file gets the same mtime) would share it. The mutated
    module's pyc goes before and after each mutant, so ``0 / 5`` survives after ``0 + 5`` was killed."""
    real_write = Path.write_text

    def same_second(self, *a, **kw):
        out = real_write(self, *a, **kw)
        os.utime(self, (1_000_000_000, 1_000_000_000))
        return out

    run, runner = _tiny_runner(tmp_path, "x = 1 + 1\ny = 0 * 5\n", ("test_m.py", WARM_TEST), warm)
    monkeypatch.setattr(Path, "write_text", same_second)
    mutants = [
        run.Mutant("m.py", 2, "core/ReplaceBinaryOperator_Mul_Add", 0, ["test_m.py"]),
        run.Mutant("m.py", 2, "core/ReplaceBinaryOperator_Mul_Div", 0, ["test_m.py"]),
    ]
    runner.run(mutants, lambda m: None)
    assert [(m.after, m.outcome) for m in mutants] == [("y = 0 + 5", "killed"), ("y = 0 / 5", "survived")]
    tree = runner.trees[0]
    assert list((tree / "__pycache__").glob("test_m.*.pyc"))  # bytecode is written in the tree copy
    assert not list((tree / "__pycache__").glob("m.*.pyc")) and (tree / "m.py").read_text() == "x = 1 + 1\ny = 0 * 5\n"
