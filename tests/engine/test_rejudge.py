"""Saved runs (issue 13 item 2): a run saved with --save-run is judged again, without running
anything, into the same cells and findings; with another oracle registered, it is really judged
again (not replayed)."""

from __future__ import annotations

import json

from onnx import parser

from passcheck.api import check_model
from passcheck.cli import main
from passcheck.oracles import registry
from passcheck.oracles._contract import INPUT, PASS, BaseOracle
from passcheck.saved_runs import rejudge
from passcheck.testing import as_adapter, registered
from tests.quality.planted import negate_everything

#: value_info t claims [3] where the run gives [N]; an If whose branch values are observed by the reference evaluator.
MODEL = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N] x, bool c) => (float[N] y) <float[3] t> {
  t = Relu(x)
  y = If(c) <then_branch = a () => (float[N] u) { u = Identity(t) },
             else_branch = b () => (float[N] v) { v = Neg(t) }>
}"""


def _json(cells):
    return [c.to_json() for c in cells]


def test_a_saved_run_is_judged_again_into_the_same_cells(tmp_path):
    model = parser.parse_model(MODEL)
    with registered(as_adapter(negate_everything, "user:negate")) as pid:
        report = check_model(model, [pid, "ort:basic"], isolation=False, save_run=tmp_path / "run")
    kinds = {f.kind for f in report.findings}
    assert {"annotation-violated", "wrong-result"} <= kinds, kinds
    again = rejudge(tmp_path / "run")
    assert _json(again) == _json(report.cells)
    assert _json(rejudge(tmp_path / "run" / "runs.jsonl")) == _json(report.cells)


class Everything(BaseOracle):
    id = "everything"
    kinds = frozenset({PASS, INPUT})

    def check(self, run, cells):
        return [run.finding("wrong-result", self.id, "judged again")]


def test_rejudging_applies_the_oracles_registered_now(tmp_path):
    check_model(parser.parse_model(MODEL), ["ort:basic"], isolation=False, save_run=tmp_path)
    with registry.registered(Everything()):
        again = rejudge(tmp_path)
    assert again and all(any(f.oracle == "everything" for f in c.findings) for c in again)


def test_cli_report_rejudge_prints_the_findings_of_the_run(tmp_path, capsys):
    path = tmp_path / "m.onnx"
    path.write_bytes(parser.parse_model(MODEL).SerializeToString())
    code = main(
        [
            "check",
            str(path),
            "--pass",
            "ort:basic",
            "--no-isolation",
            "--save-run",
            str(tmp_path / "run"),
            "--json",
            str(tmp_path / "a.json"),
        ]
    )
    assert code == 1
    first = json.loads((tmp_path / "a.json").read_text())
    capsys.readouterr()
    assert (
        main(["report", "--rejudge", str(tmp_path / "run"), "--format", "json", "--out", str(tmp_path / "b.json")]) == 0
    )
    second = json.loads((tmp_path / "b.json").read_text())
    ids = lambda r: sorted(f["id"] + f["message"] for c in r["results"] for f in c["findings"])  # noqa: E731
    assert ids(first) and ids(first) == ids(second)
    # the environment's exact versions, as the run reported them (not an empty entry)
    assert second["environments"] == first["environments"] and second["environments"]["local"]["onnxruntime"]
    (tmp_path / "run" / "environments.json").unlink()  # a run saved before the file existed
    assert (
        main(["report", "--rejudge", str(tmp_path / "run"), "--format", "json", "--out", str(tmp_path / "c.json")]) == 0
    )
    older = json.loads((tmp_path / "c.json").read_text())["environments"]["local"]
    assert older["onnxruntime"] == first["environments"]["local"]["onnxruntime"]  # from the pass outcomes
    assert main(["report", "--rejudge", str(tmp_path / "nothing")]) == 2
    assert "no saved run there" in capsys.readouterr().err


def test_a_folder_saved_twice_is_rejudged_as_its_latest_run(tmp_path, capsys):
    # was: both runs' groups were read, the first run's cells listed next to the second's
    path = tmp_path / "m.onnx"
    path.write_bytes(parser.parse_model(MODEL).SerializeToString())
    run = str(tmp_path / "run")
    for name, pid in (("first", "ort:basic"), ("second", "onnx:infer-shapes")):
        argv = [
            "check",
            str(path),
            "--pass",
            pid,
            "--no-isolation",
            "--save-run",
            run,
            "--json",
            f"{tmp_path}/{name}.json",
        ]
        assert main(argv) == 1
    second = json.loads((tmp_path / "second.json").read_text())["results"]
    assert {c["pass_id"] for c in second} == {"input", "onnx:infer-shapes"}
    capsys.readouterr()
    assert main(["report", "--rejudge", run, "--format", "json", "--out", str(tmp_path / "again.json")]) == 0
    again = json.loads((tmp_path / "again.json").read_text())["results"]
    key = lambda c: (c["form"], c["pass_id"], sorted(f["id"] for f in c["findings"]))  # noqa: E731
    assert sorted(map(key, again)) == sorted(map(key, second))  # the second run's cells, no ort:basic one
    err = capsys.readouterr().err
    assert f"{run} holds 2 saved runs; rejudging the latest" in err, err


def test_a_resumed_run_saved_into_the_folder_of_the_run_it_resumes_is_rejudged_with_it(tmp_path):
    # a run given skip_cells (--stream --resume) judges only the cells the first run left: the two are one run
    model = parser.parse_model(MODEL)
    first = check_model(model, ["ort:basic"], isolation=False, save_run=tmp_path)
    done = {(c.form, c.pass_id) for c in first.cells}
    rest = check_model(
        model,
        ["ort:basic", "onnx:infer-shapes"],
        isolation=False,
        save_run=tmp_path,
        skip_cells=lambda _case, form, pid: (form, pid) in done,
    )
    assert {c.pass_id for c in rest.cells} == {"onnx:infer-shapes"}
    assert sorted(map(_key, rejudge(tmp_path))) == sorted(map(_key, first.cells + rest.cells))
    third = check_model(model, ["onnx:infer-shapes"], isolation=False, save_run=tmp_path)  # a new run again
    assert sorted(map(_key, rejudge(tmp_path))) == sorted(map(_key, third.cells))


def _key(cell):
    return (cell.form, cell.pass_id, sorted(f.id for f in cell.findings))
