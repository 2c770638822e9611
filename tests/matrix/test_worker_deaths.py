"""A matrix worker that dies, cannot import what passcheck needs, or is interrupted: verdicts
only for what was checked. Every environment is this interpreter (tests/matrix/local_matrix.py),
so no uv environment is built; the parent is the real CLI in a subprocess."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from passcheck.matrix import schemas
from passcheck.report import read_report

REPO = Path(__file__).resolve().parents[2]
LOCAL = Path(__file__).with_name("local_matrix.py")

PLANTED = textwrap.dedent('''
    """Cases and a pass that kill the matrix worker itself (not the isolated pass worker)."""
    import os
    import sys
    import time

    from passcheck.cases import Case, Form, register
    from passcheck.cases.builders import FLOAT, model, node, vi
    from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass


    def _relu(name):
        def build():
            m = model([node("Relu", ["x"], ["y"], name="relu")], [vi("x", FLOAT, ["N", 3])],
                      [vi("y", FLOAT, ["N", 3])], opset=18)
            m.graph.name = name
            return m
        return build


    def _identity(m):
        return m


    class _Marked(FunctionAdapter):
        """Its precondition runs in the matrix worker, before the pass's isolated run."""

        def precondition(self, model):
            if model.graph.name == "abort-here":
                print("planted: aborting the matrix worker", flush=True)
                os.abort()
            if model.graph.name == "hang-here":
                with open(os.environ["PLANTED_MARK"], "w") as f:  # tells the test which process hangs, and that it does
                    f.write(str(os.getpid()))
                time.sleep(3600)
            return None


    def _abort_feeds(binding, seed):
        print("planted: feeds abort", flush=True)
        os.abort()


    def _import_feeds(binding, seed):
        import planted_module_missing_here  # noqa: F401


    def _case(cid, name, **kw):
        register(Case(id=cid, doc="planted", opset=18, bindings=({"N": 1}, {"N": 2}),
                      forms={"common": Form(_relu(name)),
                             "other": Form(_relu(name + "-2") if name == "fine" else _relu(name))}, **kw))


    _case("deaths/ok", "fine")
    _case("deaths/pass-aborts", "abort-here")
    _case("deaths/feeds-abort", "fine", feeds=_abort_feeds)
    _case("deaths/not-here", "fine", min_onnx="99.0")
    _case("deaths/feeds-import", "fine", feeds=_import_feeds)
    _case("deaths/stuck", "hang-here")
    if getattr(getattr(sys.modules.get("__main__"), "__spec__", None), "name", "") != "passcheck.matrix.worker":
        _case("deaths/parent-only", "fine")  # a family gated per installed tool: other ids in the worker
        if "planted:parent-only" not in known_pass_ids():  # a pass whose tool the environment does not install
            register_pass(FunctionAdapter("planted:parent-only", _identity))
    if "planted:marked" not in known_pass_ids():
        register_pass(_Marked("planted:marked", _identity))
''')


def _matrix(tmp: Path, *args: str, env: dict | None = None, **popen) -> subprocess.Popen:
    (tmp / "planted.py").write_text(PLANTED)
    cmd = [
        sys.executable,
        str(LOCAL),
        "matrix",
        "--cases-from",
        str(tmp / "planted.py"),
        "--out",
        str(tmp / "out"),
        "--source",
        str(REPO),
        "--envs-dir",
        str(REPO / "ci" / "envs"),
        "--progress",
        "lines",
        "-q",
        "--jobs",
        "1",
        *args,
    ]
    full = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
        "LOCAL_MATRIX_ROOT": str(tmp / "envs"),
        "PLANTED_MARK": str(tmp / "mark"),
        **(env or {}),
    }
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp, env=full, **popen)


def _cells(tmp: Path) -> dict:
    cells, envs = read_report(tmp / "out" / "report.json")
    return {(c.case, c.pass_id, c.form, c.env): c for c in cells}, envs


def _blame_run(tmp_path, *cases: str, env: dict | None = None) -> dict:
    args = [a for c in cases for a in ("--case", c)]
    proc = _matrix(
        tmp_path, "--env", "onnx-1.23", *args, "--pass", "onnx:infer-shapes", "--pass", "planted:marked", env=env
    )
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 1, err
    assert "Traceback" not in err, err
    cells, _ = _cells(tmp_path)
    assert len(cells) == len(cases) * 3 * 2  # cases × (input + 2 passes) × forms: every cell has a verdict
    return cells


def test_only_the_pass_whose_unit_kills_the_worker_is_blamed(tmp_path):
    cells = _blame_run(tmp_path, "deaths/ok", "deaths/pass-aborts", "deaths/not-here")
    for (case, pass_id, form, _env), c in cells.items():
        blamed = [f for f in c.findings if f.oracle == "isolation"]
        if case == "deaths/pass-aborts" and pass_id == "planted:marked":
            # the pass's precondition aborts the worker: confirmed in a fresh worker, then blamed with how and the
            # stderr tail
            assert c.status == "crashed" and c.verdict == "findings" and blamed, c
            assert (
                "SIGABRT" in c.error
                and "again when re-run alone" in c.error
                and "planted: aborting the matrix worker" in c.error
            )
        elif case == "deaths/not-here":  # out of this onnx's range: every cell skipped, the forms themselves too
            assert c.status == "skipped" and not c.findings, c
        else:  # the same case's other cells, the other case: their real verdicts
            assert c.verdict == "ok" and c.status not in ("crashed", "timeout"), (case, pass_id, form, c.error)


def test_without_a_re_run_the_cells_a_death_left_are_unchecked_not_blamed(tmp_path):
    cells = _blame_run(tmp_path, "deaths/ok", "deaths/pass-aborts", env={"LOCAL_MATRIX_NO_RERUN": "1"})
    for (case, pass_id, _form, _env), c in cells.items():
        if (
            case == "deaths/pass-aborts" and pass_id == "planted:marked"
        ):  # one death, not confirmed: no verdict on the pass
            assert (
                c.verdict == "unchecked" and not c.findings and "no re-run beyond 0" in c.error and "SIGABRT" in c.error
            ), c
        else:
            assert c.verdict == "ok", c


def test_a_case_that_kills_the_worker_before_any_pass_blames_no_pass(tmp_path):
    cells = _blame_run(tmp_path, "deaths/feeds-abort", "deaths/ok")
    for (case, pass_id, form, _env), c in cells.items():
        blamed = [f for f in c.findings if f.oracle == "isolation"]
        if case == "deaths/feeds-abort" and pass_id == "input":
            assert c.status == "crashed" and blamed and "planted: feeds abort" in c.error, (
                c
            )  # the case itself kills the worker
        elif case == "deaths/feeds-abort":  # no pass ran: not checked, and no finding against the pass
            assert (
                c.verdict == "unchecked"
                and not c.findings
                and "not run: " in c.error
                and "before any pass ran" in c.error
            ), c
        else:  # never reported by the worker that died first: re-run, real verdicts
            assert c.verdict == "ok" and c.status not in ("crashed", "timeout"), (case, pass_id, form, c.error)


def test_an_environment_that_cannot_import_passcheck_is_unusable_not_a_finding(tmp_path):
    broken = tmp_path / "broken" / "onnx"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text('raise ImportError("planted: this environment\'s onnx is broken")\n')
    proc = _matrix(
        tmp_path,
        "--env",
        "onnx-1.23",
        "--env",
        "onnx-1.22",
        "--case",
        "deaths/ok",
        "--case",
        "deaths/feeds-import",
        "--case",
        "schemas/*",
        "--pass",
        "onnx:infer-shapes",
        env={"LOCAL_MATRIX_BROKEN": f"onnx-1.22:{broken.parent}"},
    )
    _, err = proc.communicate(timeout=600)
    assert proc.returncode == 2, err  # an unusable environment (README / --exit-zero: still 2)
    assert "onnx-1.22 could not be used" in err and "Traceback" not in err, err
    cells, envs = _cells(tmp_path)
    # onnx 1.22.0's released schemas (passcheck.matrix.schemas): a cached table of that release does not answer for
    # this environment, whose onnx does not import: its one schema cell is unchecked with why (onnx-1.23 is the newest)
    (released,) = [c for k, c in cells.items() if k[0] == schemas.CASE]
    assert (released.env, released.verdict, released.form) == ("onnx-1.22", "unchecked", schemas.FORM), released
    assert "planted: this environment's onnx is broken" in released.error and not released.findings, released
    cells = {k: c for k, c in cells.items() if k[0] != schemas.CASE}
    assert "planted: this environment's onnx is broken" in envs["onnx-1.22"]["error"] and not envs["onnx-1.23"].get(
        "error"
    )
    assert len(cells) == 2 * 2 * 2 * 2  # every cell of both environments is recorded: what was computed is kept
    for (case, _pass, _form, env), c in cells.items():
        assert not c.findings, c  # nothing here is a pass's doing
        if env == "onnx-1.22":
            assert c.verdict == "unavailable" and "onnx is broken" in c.error, c
        elif case == "deaths/feeds-import":  # an import failing inside one case: that case is not checked, the rest is
            assert c.verdict == "unchecked" and "planted_module_missing_here" in c.error, c
        else:
            assert c.verdict == "ok", c


def test_ctrl_c_while_the_worker_is_stuck_stops_at_once_and_keeps_what_was_computed(tmp_path):
    mark = tmp_path / "mark"
    proc = _matrix(
        tmp_path,
        "--env",
        "onnx-1.23",
        "--case",
        "deaths/ok",
        "--case",
        "deaths/stuck",
        "--pass",
        "planted:marked",
        "--timeout",
        "600",
    )
    deadline = time.monotonic() + 300  # generous: the worker must start and finish deaths/ok under load
    while not (mark.is_file() and mark.read_text()):
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.1)
    worker = int(mark.read_text())
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    took = time.monotonic() - sent
    assert proc.returncode == 130, err
    assert took < 30, f"{took:.1f} s from SIGINT to exit"  # prompt (< 1 s unloaded); generous for a loaded machine
    print(f"SIGINT to exit: {took:.2f} s")
    cells, _ = _cells(tmp_path)
    # computed before the interrupt: kept; the cells of the pass it interrupted: missing (--resume runs them),
    # not blamed
    assert sorted(k[:2] for k in cells) == sorted(
        [("deaths/ok", "input"), ("deaths/ok", "planted:marked")] * 2 + [("deaths/stuck", "input")] * 2
    )
    assert all(c.verdict == "ok" for c in cells.values())
    assert not Path(f"/proc/{worker}").exists() or "zombie" in Path(f"/proc/{worker}/status").read_text().lower()


def test_an_interrupt_does_not_wait_minutes_for_reports_of_a_huge_run(tmp_path, monkeypatch, capsys):
    """Writing the reports of ~800 000 cells takes minutes: after an interrupt only results.jsonl
    (flushed per record) is kept then, and an earlier run's reports are removed, not left looking current."""
    from passcheck.matrix import runner
    from passcheck.records import CellResult

    out = tmp_path / "out"
    out.mkdir()
    cells = [CellResult("c", f"f{i}", "input", "unchanged", env="e") for i in range(3)]
    (out / runner.RESULTS).write_text("".join(json.dumps(c.to_json()) + "\n" for c in cells))
    runner.finish_interrupted(out)  # small: the reports are written
    assert len(read_report(out / "report.json")[0]) == 3
    monkeypatch.setattr(runner, "INTERRUPT_REPORT_BYTES", 10)
    runner.finish_interrupted(out)
    assert not (out / "report.json").exists() and not (out / "report.md").exists()
    assert "--resume" in capsys.readouterr().err
    assert len(read_report(out / runner.RESULTS)[0]) == 3


def test_a_case_this_environments_library_lacks_is_skipped_and_the_worker_lives(tmp_path):
    """A gated family registers other ids under another onnxruntime (``contrib-static/*``: an op the pinned release
    lacks): the worker reports that case's cells skipped with the reason and runs the next case (round 19b)."""
    proc = _matrix(
        tmp_path,
        "--env",
        "onnx-1.23",
        "--case",
        "deaths/parent-only",
        "--case",
        "deaths/ok",
        "--pass",
        "onnx:infer-shapes",
    )
    _, err = proc.communicate(timeout=600)
    assert "Traceback" not in err, err
    cells, _ = _cells(tmp_path)
    absent = [c for (case, *_), c in cells.items() if case == "deaths/parent-only"]
    assert absent and all(c.status == "skipped" and "has no case" in (c.error or "") for c in absent), absent
    assert {c.status for (case, *_), c in cells.items() if case == "deaths/ok"} - {"skipped", "unavailable"}


def test_a_pass_the_environment_does_not_define_is_unavailable_and_the_rest_still_run(tmp_path):
    # onnx-1.16 installs no onnx-ir, so its passcheck defines no ``onnx-ir:*`` pass: the worker used to raise
    # UnknownIdError for the case, dying, and every cell of the case there (its forms' own ``input`` cells, every
    # other pass) was lost as ``crashed``. Here the planted pass is known to the parent and not to the worker.
    proc = _matrix(
        tmp_path,
        "--env",
        "onnx-1.23",
        "--case",
        "deaths/ok",
        "--pass",
        "planted:parent-only",
        "--pass",
        "onnx:infer-shapes",
    )
    _, err = proc.communicate(timeout=600)
    assert "Traceback" not in err, err
    cells, _ = _cells(tmp_path)
    assert len(cells) == 3 * 2, sorted(cells)  # (input + 2 passes) × forms: every cell has a verdict
    for (_case, pass_id, _form, _env), c in cells.items():
        if pass_id == "planted:parent-only":
            assert c.status == "unavailable" and not c.findings, c
            assert "this environment defines no pass 'planted:parent-only'" in c.error, c
        else:  # the forms themselves and the other pass were checked
            assert c.status not in ("crashed", "unavailable", "timeout") and c.verdict == "ok", c
    assert proc.returncode == 0, err
