"""Every front door runs passes and model runs isolated (issue 11.1): a planted segfaulting pass
is a ``crashed … SIGSEGV`` cell and a planted hanging pass a ``timeout`` cell, whether they come
through ``run``, ``check``, ``compare``, the API, :mod:`passcheck.testing` or the pytest plugin;
models that crash onnxruntime in ``compare``'s and ``mutate``'s equivalence gate and in
``annotations`` are one line and exit 2, never the end of passcheck's process.

The hanging pass sleeps for an hour: what is asserted is that the timeout ends it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import onnx
import pytest

import passcheck
from passcheck.cases.builders import FLOAT, model, node, tensor, vi
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

TIMEOUT = "4"  # seconds for the hanging pass; model runs of a Relu take milliseconds

#: Imported by the passcheck process (``-c "import front_planted"``) and, by name, by its worker.
PLANTED = textwrap.dedent("""
    import ctypes
    import time

    import numpy as np

    from passcheck.cases import Case, Form, register
    from passcheck.cases.builders import FLOAT, model, node, tensor, vi
    from passcheck.passes import FunctionAdapter, register_pass


    def segv(m):
        print("about to dereference NULL", flush=True)
        ctypes.string_at(0)


    def hang(m):
        time.sleep(3600)


    register_pass(FunctionAdapter("planted:segv", segv))
    register_pass(FunctionAdapter("planted:hang", hang))
    register(Case(id="planted/relu", doc="one Relu", opset=18, forms={
        "common": Form(lambda: model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, ["N", 3])],
                                     [vi("y", FLOAT, ["N", 3])], opset=18)),
        "max": Form(lambda: model([node("Max", ["x", "zero"], ["y"])], [vi("x", FLOAT, ["N", 3])],
                                  [vi("y", FLOAT, ["N", 3])],
                                  initializers=[tensor("zero", np.zeros((), np.float32))], opset=18))}))
""")


def _relu(opset: int = 18, shape=("N", 3)) -> onnx.ModelProto:
    return model(
        [node("Relu", ["x"], ["y"])], [vi("x", FLOAT, list(shape))], [vi("y", FLOAT, list(shape))], opset=opset
    )


def _max(opset: int = 18) -> onnx.ModelProto:
    return model(
        [node("Max", ["x", "zero"], ["y"])],
        [vi("x", FLOAT, ["N", 3])],
        [vi("y", FLOAT, ["N", 3])],
        opset=opset,
        initializers=[tensor("zero", np.zeros((), np.float32))],
    )


def _bn9_crashing_onnxruntime() -> onnx.ModelProto:
    """BatchNormalization-9 with its four optional outputs written as "": onnxruntime 1.32
    segfaults running it (a real crash of a real tool)."""
    inits = [tensor(n, np.ones(3, np.float32)) for n in ("s", "b", "m", "v")]
    return model(
        [node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "", "", "", ""])],
        [vi("x", FLOAT, [2, 3, 4])],
        [vi("y", FLOAT, [2, 3, 4])],
        opset=9,
        initializers=inits,
    )


def _cli(tmp: Path, *argv: str) -> subprocess.CompletedProcess:
    """``passcheck ARGV`` in a fresh process that has imported the planted passes."""
    (tmp / "front_planted.py").write_text(PLANTED)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp), os.environ.get("PYTHONPATH", "")])}
    code = "import sys, front_planted; from passcheck.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, cwd=tmp, env=env, timeout=300
    )


def _statuses(report: Path) -> dict[tuple[str, str], dict]:
    return {(c["form"], c["pass_id"]): c for c in json.loads(report.read_text())["results"]}


def _assert_crash_and_timeout(
    proc: subprocess.CompletedProcess, cells: dict[tuple[str, str], dict], forms: list[str]
) -> None:
    assert proc.returncode == 1, proc.stderr  # the crash and the hang are findings, passcheck lives on
    assert "Traceback" not in proc.stderr, proc.stderr
    for form in forms:
        crash, hang = cells[(form, "planted:segv")], cells[(form, "planted:hang")]
        assert crash["status"] == "crashed" and "SIGSEGV" in crash["error"] and crash["findings"], crash
        assert hang["status"] == "timeout" and hang["findings"], hang


@pytest.mark.parametrize("door", ["run", "check", "compare"])
def test_cli_front_doors_isolate_crashing_and_hanging_passes(tmp_path, door):
    onnx.save(_relu(), str(tmp_path / "relu.onnx"))
    onnx.save(_max(), str(tmp_path / "max.onnx"))
    target = {
        "run": ["run", "--case", "planted/relu"],
        "check": ["check", "relu.onnx"],
        "compare": ["compare", "relu.onnx", "max.onnx"],
    }[door]
    proc = _cli(
        tmp_path, *target, "--pass", "planted:segv", "--pass", "planted:hang", "--timeout", TIMEOUT, "--json", "r.json"
    )
    forms = {"run": ["common", "max"], "check": ["common"], "compare": ["relu", "max"]}[door]
    cells = _statuses(tmp_path / "r.json")
    _assert_crash_and_timeout(proc, cells, forms)
    # the timeout is reproduced at the limit it had (at the default 300 s the pass would run on)
    for form in forms:
        assert {f["repro"].endswith(f" --timeout {TIMEOUT}") for f in cells[(form, "planted:hang")]["findings"]} == {
            True
        }
        assert not [f for f in cells[(form, "planted:segv")]["findings"] if "--timeout" in f["repro"]]
    assert f"--pass planted:hang --timeout {TIMEOUT}" in proc.stdout
    if door == "compare":
        assert "crashed" in proc.stdout and "SIGSEGV" in proc.stdout


def test_cli_no_isolation_is_the_opt_out(tmp_path):
    """--no-isolation runs the pass in passcheck's own process: the segfault is passcheck's (the
    reason every other door isolates)."""
    onnx.save(_relu(), str(tmp_path / "relu.onnx"))
    onnx.save(_max(), str(tmp_path / "max.onnx"))
    proc = _cli(tmp_path, "compare", "relu.onnx", "max.onnx", "--pass", "planted:segv", "--no-isolation")
    assert proc.returncode == -11


@pytest.mark.parametrize(
    "argv",
    [
        ["compare", "relu9.onnx", "bn9.onnx", "--pass", "onnx:infer-shapes"],
        ["mutate", "bn9.onnx", "--out", "mutants"],
        ["check", "bn9.onnx", "--mutations", "--pass", "onnx:infer-shapes"],
        ["annotations", "bn9.onnx"],
    ],
    ids=["compare-gate", "mutate-gate", "check-mutations-gate", "annotations"],
)
def test_model_runs_that_crash_onnxruntime_are_one_line(tmp_path, argv):
    onnx.save(_bn9_crashing_onnxruntime(), str(tmp_path / "bn9.onnx"))
    onnx.save(_relu(9, (2, 3, 4)), str(tmp_path / "relu9.onnx"))
    proc = _cli(
        tmp_path, *argv, "--progress", "none"
    )  # progress lines (a loaded machine prints "running for S s") are not the error
    assert proc.returncode in (1, 2), proc.stderr  # never a signal
    if argv[0] != "check":
        assert proc.returncode == 2 and "SIGSEGV" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, (
            proc.stderr
        )


def _segv(m):
    import ctypes

    ctypes.string_at(0)


def _hang(m):
    import time

    time.sleep(3600)


@pytest.fixture
def planted_ids():
    ids = ["planted-api:segv", "planted-api:hang"]
    register_pass(FunctionAdapter(ids[0], _segv))
    register_pass(FunctionAdapter(ids[1], _hang))
    yield ids
    for i in ids:
        unregister_pass(i)


def test_api_check_model_isolates_by_default(planted_ids):
    report = passcheck.check_model(_relu(), planted_ids, timeout=float(TIMEOUT))
    cells = {c.pass_id: c for c in report.cells}
    assert cells["planted-api:segv"].status == "crashed" and "SIGSEGV" in cells["planted-api:segv"].error
    assert cells["planted-api:hang"].status == "timeout"
    assert report.exit_code == 1


def _case(case_id: str):
    from passcheck.cases import Case, Form

    return Case(
        id=case_id, doc="one Relu", opset=18, forms={"common": Form(lambda: _relu()), "max": Form(lambda: _max())}
    )


def test_api_run_isolates_by_default(planted_ids):
    from passcheck.cases import REGISTRY, register

    register(_case("planted-api/relu"))
    try:
        report = passcheck.run(["planted-api/relu"], planted_ids, timeout=float(TIMEOUT))
    finally:
        REGISTRY._cases.pop("planted-api/relu")
    cells = {c.pass_id: c for c in report.cells}
    assert cells["planted-api:segv"].status == "crashed" and cells["planted-api:hang"].status == "timeout"


def test_testing_helpers_isolate_one_shot_callables():
    """A closure cannot be imported by the worker: it runs in a one-shot child, still isolated."""
    from passcheck.testing import FindingsError, assert_pass_ok, run_pass

    def segv_here(m):  # a local function: the one-shot fork path
        _segv(m)

    case = _case("planted-testing/relu")
    with pytest.raises(FindingsError, match="SIGSEGV"):
        assert_pass_ok(segv_here, case)
    cells = run_pass(lambda m: _hang(m), case, timeout=float(TIMEOUT))
    assert [c.status for c in cells] == ["timeout", "timeout"] and all(c.findings for c in cells)


INNER_CONFTEST = PLANTED.replace("planted/", "inner/").replace("planted:", "inner:")

INNER_TESTS = textwrap.dedent("""
    import ctypes
    import time

    import pytest


    def _make():
        def segv(m):  # nested: the worker cannot import it, so it runs in a one-shot child
            ctypes.string_at(0)

        def hang(m):
            time.sleep(3600)

        return segv, hang


    SEGV, HANG = _make()


    @pytest.mark.passcheck(cases=["inner/*"], passes=[SEGV])
    def test_segv(passcheck_case):
        passcheck_case.assert_ok()


    @pytest.mark.passcheck(cases=["inner/*"], passes=[HANG])
    def test_hang(passcheck_case):
        passcheck_case.assert_ok()


    @pytest.mark.passcheck(cases=["inner/*"], passes=["onnx:infer-shapes"])
    def test_after(passcheck_case):
        passcheck_case.assert_ok()
""")


def test_pytest_plugin_session_survives_crashing_and_hanging_passes(tmp_path):
    (tmp_path / "conftest.py").write_text(INNER_CONFTEST)
    (tmp_path / "test_inner.py").write_text(INNER_TESTS)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-q",
            "--junitxml",
            "j.xml",
            "--passcheck-timeout",
            TIMEOUT,
            "test_inner.py",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "4 failed, 2 passed" in out, out  # the summary: the session went on after the crash
    assert "crashed" in out and "SIGSEGV" in out and "timeout" in out, out
    junit = (tmp_path / "j.xml").read_text()
    assert junit.count("<testcase") == 6 and "passcheck_finding" in junit
