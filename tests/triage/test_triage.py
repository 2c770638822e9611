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

#: Planted passes, run as ``cmd:`` passes: one killed by SIGSEGV, one that writes Abs for Relu.
SEGV = "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)\n"
WRONG = (
    "import sys\nimport onnx\nm = onnx.load(sys.argv[1])\nfor n in m.graph.node:\n"
    "    if n.op_type == 'Relu':\n        n.op_type = 'Abs'\nonnx.save(m, sys.argv[2])\n"
)
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
    assert "SIGSEGV" in _isolated_exit(rows[0]).stdout
    assert "## Triage" in (rows[0] / "REPORT.md").read_text()
    record = found.read_text()
    assert f"`{rows[0].name}/repro.py`" in record and "| crash | cmd |" in record and "| new |" in record, record


def test_a_file_that_is_not_a_run_is_refused_in_one_line_exit_2(tmp_path):
    bad = tmp_path / "notes.json"
    bad.write_text('{"hello": "world"}\n')
    r = subprocess.run(
        [sys.executable, "-m", "passcheck", "triage", str(bad), "--out", str(tmp_path / "t")],
        capture_output=True,
        text=True,
        timeout=300,
    )
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
