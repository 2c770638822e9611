"""``passcheck repro`` of a crash finding (issue 31): a tool killed by a signal is the reproduction,
the script runs the tool in a child process and names the signal; without ``--finding`` the first
finding of the highest rank is chosen and the choice printed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import onnx
import onnx.parser

from passcheck.cli import main
from passcheck.records import Finding
from passcheck.repro.plan import choose, rank

#: A planted pass: a command that dies of SIGSEGV on every model (after writing nothing).
SEGV = "import ctypes, sys\nctypes.string_at(0)\n"
MODEL = """<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x) => (float[2,3] y) {
  y = Relu(x)
}"""


def test_repro_of_a_planted_segfaulting_pass_exits_1_and_names_sigsegv(tmp_path, capsys, monkeypatch):
    (tmp_path / "segv.py").write_text(SEGV)
    onnx.save(onnx.parser.parse_model(MODEL), tmp_path / "relu.onnx")
    pass_id = f"cmd:{sys.executable} {tmp_path / 'segv.py'} {{in}} {{out}}"
    main(["check", str(tmp_path / "relu.onnx"), "--pass", pass_id, "--json", str(tmp_path / "r.json"), "-q"])
    doc = json.loads((tmp_path / "r.json").read_text())
    crashed = [f for r in doc["results"] if r.get("type") == "cell" for f in r["findings"] if f["kind"] == "rejected"]
    assert crashed and crashed[0]["details"]["status"] == "crashed", crashed
    capsys.readouterr()
    monkeypatch.chdir(tmp_path)
    assert main(["repro", "r.json", "--out", "bundle"]) == 0  # --out relative to the working folder
    said = capsys.readouterr().out
    assert "checked here: exit 1, BUG:" in said and "SIGSEGV" in said, said
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run(
        [sys.executable, "-I", "repro.py"],
        cwd=tmp_path / "bundle",
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert r.returncode == 1 and "killed its process (SIGSEGV)" in r.stdout, (r.stdout, r.stderr)


def _f(kind: str, status: str = "", form: str = "u") -> Finding:
    return Finding(kind, "o", "c", form, "onnx:infer-shapes", "m", {"status": status} if status else {})


def test_without_finding_the_first_of_the_highest_rank_is_chosen_and_said(monkeypatch):
    from passcheck.records import CellResult
    from passcheck.repro import plan

    monkeypatch.setattr(plan, "refusal", lambda f: None)
    ranked = [
        _f("missed-optimization"),
        _f("annotation-violated"),
        _f("invalid-model"),
        _f("wrong-result", form="a"),
        _f("wrong-result", form="b"),
        _f("rejected", "crashed", form="k"),
        _f("rejected", "declined"),
    ]
    assert [rank(f) for f in ranked] == [
        "missed optimization",
        "wrong shape or type",
        "invalid output",
        "wrong result",
        "wrong result",
        "crash",
        "other",
    ]
    cells = [CellResult("c", f.form, f.pass_id, "changed", findings=[f]) for f in ranked]
    chosen, said = choose(cells, None)
    assert chosen is ranked[5] and said.startswith(f"chose {ranked[5].id} (crash")
    chosen, _ = choose(cells[:5], None)
    assert chosen is ranked[3]  # the first wrong result in report order


#: A form onnxruntime cannot run though the checker accepts it: AveragePool-1 (no onnxruntime kernel).
AVGPOOL = """<ir_version: 3, opset_import: ["" : 1]>
g (float[1,1,4] x) => (float[1,1,2] y) {
  y = AveragePool<kernel_shape=[2], strides=[2]>(x)
}"""


def test_repro_of_a_finding_on_a_form_itself_scripts_the_form_and_the_run_that_fails(tmp_path, capsys):
    onnx.save(onnx.parser.parse_model(AVGPOOL), tmp_path / "pool.onnx")
    main(
        ["check", str(tmp_path / "pool.onnx"), "--pass", "onnx:infer-shapes", "--json", str(tmp_path / "r.json"), "-q"]
    )
    doc = json.loads((tmp_path / "r.json").read_text())
    ids = [f["id"] for r in doc["results"] if r.get("type") == "cell" for f in r["findings"]]
    on_form = next(i for i in ids if "|input|runtime|rejected" in i)
    capsys.readouterr()
    assert main(["repro", str(tmp_path / "r.json"), "--finding", on_form, "--out", str(tmp_path / "b")]) == 0
    said = capsys.readouterr().out
    assert "checked here: exit 1, BUG: onnxruntime cannot run the valid model" in said, said
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run(
        [sys.executable, "-I", "repro.py"], cwd=tmp_path / "b", capture_output=True, text=True, timeout=300, env=env
    )
    assert r.returncode == 1 and "AveragePool" in r.stdout, (r.stdout, r.stderr)
