"""``passcheck triage`` (issue 31): a saved run with a planted crashing pass (SIGSEGV) and a planted
wrong-result pass gives ranked bundles, the crash first, each ``repro.py`` exiting 1 under
``python -I``; ``index.md`` lists them; a file that is not a run is refused in one line (exit 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import onnx
import onnx.parser
import pytest

from passcheck.cli import main
from passcheck.records import CellResult, Finding
from passcheck.triage.candidates import group
from tests._inproc import cli
from tests.triage._planted import renaming

#: Planted passes, run as ``cmd:`` passes: one killed by SIGSEGV, one that writes Abs for Relu.
SEGV = "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n"
WRONG = renaming("Relu", "Abs")
MODEL = """<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x) => (float[2,3] y) {
  y = Relu(x)
}"""


@pytest.fixture(scope="module")
def saved_run(tmp_path_factory):
    """(folder, report JSON, --save-run folder) of ``check`` on Relu with both planted passes."""
    d = tmp_path_factory.mktemp("planted")
    (d / "segv.py").write_text(SEGV)
    (d / "wrong.py").write_text(WRONG)
    onnx.save(onnx.parser.parse_model(MODEL), d / "relu.onnx")
    passes = [f"cmd:{sys.executable} {d / name} {{in}} {{out}}" for name in ("wrong.py", "segv.py")]
    main(
        [
            "check",
            str(d / "relu.onnx"),
            *(w for p in passes for w in ("--pass", p)),
            "--json",
            str(d / "r.json"),
            "--save-run",
            str(d / "saved"),
            "-q",
        ]
    )
    return d, d / "r.json", d / "saved"


def _isolated_exit(folder) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, "-I", "repro.py"], cwd=folder, capture_output=True, text=True, timeout=300, env=env
    )


@pytest.mark.parametrize("which", ["report", "save-run"])
def test_triage_ranks_the_planted_crash_first_and_every_bundle_reproduces(saved_run, which, tmp_path, capsys):
    d, report, saved = saved_run
    found = tmp_path / "found.md"
    assert (
        main(
            ["triage", str(report if which == "report" else saved), "--out", str(tmp_path / "t"), "--found", str(found)]
        )
        == 0
    )
    said = capsys.readouterr().out
    rows = sorted(p for p in (tmp_path / "t").iterdir() if p.is_dir())
    cands = [json.loads((p / "candidate.json").read_text()) for p in rows]
    assert len(cands) >= 2, said
    assert [c["rank"] for c in cands[:2]] == ["crash", "wrong result"], [(c["rank"], c["status"]) for c in cands]
    assert rows[0].name.startswith("01-cmd-") and rows[1].name.startswith("02-cmd-"), rows
    index = (tmp_path / "t" / "index.md").read_text()
    for p, c in zip(rows[:2], cands[:2]):
        assert c["status"] == "reproduced", (c["status"], c["why"])
        assert {"repro.py", "REPORT.md", "candidate.json"} <= {f.name for f in p.iterdir()}
        assert f"[{p.name}]({p.name}/)" in index and "| reproduced |" in index
        r = _isolated_exit(p)
        assert r.returncode == 1, (p.name, r.stdout, r.stderr)
        assert p != rows[0] or "SIGSEGV" in r.stdout, r.stdout
    assert "## Triage" in (rows[0] / "REPORT.md").read_text()
    assert "## Model\n`form.onnx` (1 node):" in (rows[0] / "REPORT.md").read_text()
    assert "y = Relu (x)" in (rows[0] / "REPORT.md").read_text()
    record = found.read_text()
    assert f"`{rows[0].name}/repro.py`" in record and "| crash | cmd |" in record and "| new |" in record, record


def test_a_file_that_is_not_a_run_is_refused_in_one_line_exit_2(tmp_path):
    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": "world"}\n')
    r = cli("triage", bad, "--out", tmp_path / "t")
    assert r.returncode == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("passcheck: error: ") and "not a run" in lines[0], r.stderr
    assert not (tmp_path / "t").exists()


def test_a_budget_spent_lists_the_rest_as_not_reached(saved_run, tmp_path):
    from passcheck.triage.run import triage

    _, report, _ = saved_run
    done = triage([report], tmp_path / "t", budget=1e-9)  # spent while the report is read
    assert done.rows and all(r["outcome"].status == "not reached" for r in done.rows)
    assert not any(r["written"] for r in done.rows)
    assert "| not reached |" in (tmp_path / "t" / "index.md").read_text()


def _f(case: str, kind: str, status: str = "", form: str = "u", pass_id: str = "ort:basic") -> Finding:
    return Finding(
        kind,
        "numeric" if kind == "wrong-result" else "acceptance",
        case,
        form,
        pass_id,
        "output 'y' differs" if kind == "wrong-result" else "crashed: Segfault",
        {"status": status, "output": "y"} if status else {"output": "y"},
    )


def test_one_candidate_per_signature_across_cases_and_the_crash_ranks_first():
    found = [
        _f("a", "wrong-result"),
        _f("b", "wrong-result"),
        _f("b", "rejected", "crashed"),
        _f("c", "wrong-result", pass_id="onnx:infer-shapes"),
    ]
    cells = [CellResult(f.case, f.form, f.pass_id, "changed", findings=[f]) for f in found]
    cands = group(cells)
    assert [(c.rank, c.tool, len(c.findings)) for c in cands] == [
        ("crash", "onnxruntime", 1),
        ("wrong result", "onnxruntime", 2),
        ("wrong result", "onnx", 1),
    ]
    assert cands[1].cases == ["a", "b"]


def _folding(case: str, form: str, pass_id: str, op: str, value, inputs: str = "shapes") -> Finding:
    why = "reads only constants and always yields" if inputs == "constants" else "always yields"
    return Finding(
        "missed-optimization",
        "folding",
        case,
        form,
        pass_id,
        f"{op} node 'n_1' {why} {value} (same for every binding) but {pass_id} did not fold it",
        {"op_type": op, "outputs": ["v"], "value": value, "inputs": inputs, "node": "n_1"},
    )


def _kept(case: str, pass_id: str, after: str, new: list[str], kept_op: str = "Pad") -> Finding:
    return Finding(
        "missed-optimization",
        "parity",
        case,
        "u",
        pass_id,
        f"{pass_id} removed {kept_op} 1→0 in 'common' but 1→1 in 'u'",
        {
            "other_form": "common",
            "kept_op_types": [kept_op],
            "kept_nodes": [{"node": "#0", "op": kept_op, "after": after}],
            "new_op_types": {"common": new, "u": new},
        },
    )


def test_findings_differing_only_in_values_levels_or_shapes_are_one_candidate():
    found = [
        # folding: one op type left unfolded, values differing (a list, a scalar, an empty list, a float)
        _folding("a", "gather-1d", "ort:basic", "Gather", "[4]"),
        _folding("a", "gather", "ort:basic", "Gather", "4"),
        _folding("b", "gather", "ort:basic", "Gather", "[3 4]"),
        _folding("c", "gather", "ort:all", "Gather", "[]"),
        _folding("d", "common", "ort:basic", "Cast", "0.5", "constants"),
        _folding("e", "common", "ort:basic", "Cast", "0.5.", "constants"),
        # ORT levels: at 'all' a precision Cast precedes the kept node and layout ops are new in both forms
        _kept("f", "ort:extended", "", []),
        _kept("g", "ort:all", "Cast InsertedPrecisionFreeCast_x", ["com.microsoft.nchwc::Conv"]),
        # annotations: the same rule broken on values of other shapes
        Finding(
            "annotation-violated",
            "annotations",
            "h",
            "common",
            "onnx:infer-shapes",
            "annotation does not hold (binding 0): y: annotated rank 1 [4], run produced shape [3, 4, 5]",
        ),
        Finding(
            "annotation-violated",
            "annotations",
            "i",
            "common",
            "onnx:infer-shapes",
            'annotation does not hold (binding 1): y: annotated rank 2 [6, "N"], run produced shape [2, 2, 3, 3]',
        ),
    ]
    cells = [CellResult(f.case, f.form, f.pass_id, "changed", findings=[f]) for f in found]
    cands = group(cells)
    assert sorted((c.signature.ops, c.signature.kind, len(c.findings)) for c in cands) == [
        ((), "annotation-violated", 2),
        (("Cast",), "missed-optimization", 2),
        (("Gather",), "missed-optimization", 4),
        (("Pad",), "missed-optimization", 2),
    ], [(c.signature.ops, c.text) for c in cands]


def test_findings_of_other_op_types_or_another_gained_op_stay_apart():
    found = [
        _folding("a", "gather", "ort:basic", "Gather", "4"),
        _folding("a", "slice", "ort:basic", "Slice", "4"),
        _folding("b", "gather", "ort:basic", "Gather", "4", "constants"),  # reads no shape: another defect
        _kept("c", "ort:basic", "", []),
        _kept("d", "ort:basic", "Conv #1", []),  # kept after another op: another site
        _kept("e", "ort:basic", "", [], kept_op="Add"),
    ]
    found.append(_kept("f", "ort:basic", "", []))
    found[-1].details["new_op_types"] = {"common": ["com.microsoft::FusedConv"], "u": []}  # a fusion one form gets
    cells = [CellResult(f.case, f.form, f.pass_id, "changed", findings=[f]) for f in found]
    assert len(group(cells)) == len(found), [(c.signature.ops, c.text) for c in group(cells)]


def test_the_public_record_writes_paths_inside_the_repository_relative_to_it(tmp_path, monkeypatch):
    from passcheck.triage.bundle import Outcome
    from passcheck.triage.index import found_md

    monkeypatch.chdir(tmp_path)
    f = _f("hunt/x", "wrong-result")
    f.repro = f"passcheck run --cases-from {tmp_path / 'docs' / 'hunt' / 'h.py'} --case hunt/x --pass ort:basic"
    outside = _f("hunt/y", "wrong-result")
    outside.repro = "passcheck run --cases-from /elsewhere/h.py --case hunt/y --pass 'cmd:tool {in} {out}'"
    rows = [
        {
            "n": i,
            "candidate": group([CellResult(g.case, g.form, g.pass_id, "changed", findings=[g])])[0],
            "outcome": Outcome("reproduced", "BUG: x"),
            "upstream": None,
            "folder": f"0{i}-x",
        }
        for i, g in enumerate((f, outside), 1)
    ]
    text = found_md(rows, "passcheck triage r.json --out t", {"onnx": "1"}, 1.0)
    assert "`passcheck run --cases-from docs/hunt/h.py --case hunt/x --pass ort:basic`" in text, text
    assert str(tmp_path) not in text
    assert "--cases-from /elsewhere/h.py --case hunt/y --pass 'cmd:tool {in} {out}'`" in text, text


def test_a_budget_that_leaves_candidates_unreached_exits_1_and_help_names_the_codes(saved_run, tmp_path, capsys):
    _, report, _ = saved_run
    assert main(["triage", str(report), "--out", str(tmp_path / "t"), "--budget", "1e-9"]) == 1
    assert "not reached" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["triage", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "exit codes: 0 every candidate was triaged" in said and "1 a candidate was not reached" in said
