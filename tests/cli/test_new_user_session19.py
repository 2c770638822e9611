"""What a new user broke (session 19): an interrupted run kept its ``--json`` report but lost the ``--junit``
and ``--markdown`` ones a CI job reads, and ``passcheck report --format junit`` of a partial report looked
like a complete, passing suite."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from junitparser import Failure, JUnitXml

from passcheck.report.partial import PARTIAL
from tests._inproc import cli
from tests.cli.test_new_user_session18 import _conv_bn

#: Two one-Relu cases and two passes: ``mine:ok`` (the identity) and ``mine:stall``, which on the model of
#: ``mine/b`` marks a file (the test's event: ``mine/a``'s cells are final by then) and sleeps.
CASES = textwrap.dedent("""
    import os
    import time

    from passcheck.cases import Case, Form, register
    from passcheck.cases.builders import FLOAT, model, node, vi
    from passcheck.passes import FunctionAdapter, register_pass


    def ok(m):
        return m


    def stall(m):
        if m.graph.node[0].name == "b":
            open(os.environ["MINE_STALL_MARK"], "a").close()
            time.sleep(3600)
        return m


    register_pass(FunctionAdapter("mine:ok", ok))
    register_pass(FunctionAdapter("mine:stall", stall))
    def _relu(name):
        return model([node("Relu", ["x"], ["y"], name=name)], [vi("x", FLOAT, ["N", 3])], [vi("y", FLOAT, ["N", 3])],
                     opset=18)


    for _n in "ab":
        register(Case(id=f"mine/{_n}", doc="one Relu", opset=18,
                      forms={f: Form(lambda _n=_n: _relu(_n)) for f in ("common", "again")}))
""")


def _junit_cases(path: Path) -> list:
    return [tc for suite in JUnitXml.fromfile(str(path)) for tc in suite]


def test_an_interrupted_run_keeps_its_junit_and_markdown_reports_marked_partial(tmp_path):
    # was: only --json was written on Ctrl-C / SIGTERM; the --junit and --markdown files a CI job uploads were
    # never written, so the cells already judged were lost to them
    (tmp_path / "mine.py").write_text(CASES)
    mark = tmp_path / "stalled"
    argv = [sys.executable, "-m", "passcheck", "run", "--cases-from", str(tmp_path / "mine.py"), "--case", "mine/*"]
    argv += ["--pass", "mine:ok", "--pass", "mine:stall", "-q", "--timeout", "3000"]
    argv += ["--json", "r.json", "--junit", "r.xml", "--markdown", "r.md"]
    env = {**os.environ, "MINE_STALL_MARK": str(mark)}
    proc = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240
    while not mark.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert mark.exists(), proc.communicate(timeout=60)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "Traceback" not in err, err
    doc = json.loads((tmp_path / "r.json").read_text())
    assert doc["partial"] is True
    judged = {(c["case"], c["pass_id"]) for c in doc["results"]}
    assert ("mine/a", "mine:stall") in judged and ("mine/b", "mine:stall") not in judged
    cases = _junit_cases(tmp_path / "r.xml")
    assert {(tc.classname, tc.name) for tc in cases} >= {("mine/a", "common | mine:stall | local")}
    failed = [tc for tc in cases if any(isinstance(r, Failure) for r in tc.result)]
    assert [tc.name for tc in failed] == ["interrupted"], [tc.name for tc in failed]
    assert "Partial report" in (tmp_path / "r.md").read_text()
    # stdout tells the user what was judged before the interrupt (was: nothing)
    assert f"{len(doc['results'])} cells: 0 unexpected findings" in out and out.rstrip().endswith(PARTIAL), out


def test_report_renders_a_partial_report_as_junit_with_a_failing_interrupted_case(tmp_path):
    # was: `passcheck report PARTIAL.json --format junit` wrote only the cells it held, all passing: a CI job
    # reading it saw a green suite for a run that never finished
    r = cli("run", "--case", "optional-input/conv-bn", "--pass", "ort:disabled", "-q", "--json", tmp_path / "r.json")
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stdout + r.stderr
    doc = json.loads((tmp_path / "r.json").read_text())
    (tmp_path / "p.json").write_text(json.dumps({**doc, "partial": True}))
    r = cli("report", tmp_path / "p.json", "--format", "junit", "--out", tmp_path / "p.xml")
    assert r.returncode == 0, r.stderr
    failed = [tc for tc in _junit_cases(tmp_path / "p.xml") if any(isinstance(x, Failure) for x in tc.result)]
    assert [tc.name for tc in failed] == ["interrupted"]
    assert "interrupted" in failed[0].result[0].message


def test_findings_of_one_form_against_several_rewrites_are_each_reachable_by_finding(tmp_path):
    # was: `check --mutations` gives `common` one parity finding per rewrite that got the fusion, all with one id;
    # `repro`/`reduce`/`attribute --finding ID` silently took the first, and no --finding reached the others
    model = tmp_path / "conv bn.onnx"
    _conv_bn(model)
    r = cli(
        "check",
        model,
        "--mutations",
        "--max-sites",
        "0",
        "--form",
        "omitted-optional-input",
        "--form",
        "node-in-if-const",
        "--pass",
        "ort:basic",
        "-q",
        "--json",
        tmp_path / "r.json",
    )
    assert r.returncode == 1, r.stdout + r.stderr
    ids = {f["id"] for c in json.loads((tmp_path / "r.json").read_text())["results"] for f in c["findings"]}
    assert len(ids) == 1, ids
    (fid,) = ids
    r = cli("repro", tmp_path / "r.json", "--finding", fid, "--out", tmp_path / "rp")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert f"{fid}@node-in-if-const" in r.stderr and f"{fid}@omitted-optional-input" in r.stderr, r.stderr
    assert not (tmp_path / "rp").exists()
    r = cli("repro", tmp_path / "r.json", "--finding", f"{fid}@node-in-if-const", "--out", tmp_path / "rp")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "node-in-if-const" in (tmp_path / "rp" / "REPORT.md").read_text()
    assert "omitted-optional-input" not in (tmp_path / "rp" / "REPORT.md").read_text()


def test_check_model_given_neither_a_model_nor_a_path_raises_model_load_error(tmp_path):
    # was: AttributeError: 'bytes' object has no attribute 'graph' (and alike for an int), not passcheck's error
    import passcheck
    from passcheck.errors import ModelLoadError

    for bad in (b"\x08\x07", 42):
        try:
            passcheck.check_model(bad, ["ort:basic"], isolation=False)
        except ModelLoadError as e:
            assert "\n" not in str(e) and type(bad).__name__ in str(e), str(e)
        else:
            raise AssertionError(f"check_model({bad!r}) raised nothing")
    _conv_bn(tmp_path / "m.onnx")

    class Where:  # an os.PathLike that is not a pathlib.Path is a path too
        def __fspath__(self):
            return str(tmp_path / "m.onnx")

    report = passcheck.check_model(Where(), ["ort:disabled"], isolation=False)
    assert report.exit_code == 0 and {c.case for c in report.cells} == {"model/m"}


def test_junit_report_says_the_tool_versions_and_each_cell_s_model_hash(tmp_path):
    # was: the JUnit XML (what a CI job keeps) named neither the onnx / onnxruntime versions nor the hash of the
    # model a cell judged, though write_junit's docstring promised "each testcase carries tool versions"
    import xml.etree.ElementTree as ET

    import onnx
    import onnxruntime

    _conv_bn(tmp_path / "m.onnx")
    r = cli(
        "check",
        tmp_path / "m.onnx",
        "--pass",
        "ort:basic",
        "-q",
        "--junit",
        tmp_path / "r.xml",
        "--json",
        tmp_path / "r.json",
    )
    assert r.returncode == 0, r.stdout + r.stderr
    root = ET.parse(tmp_path / "r.xml").getroot()
    suite = {p.get("name"): p.get("value") for p in root.find("testsuite").find("properties")}
    assert suite["local.onnx"] == onnx.__version__ and suite["local.onnxruntime"] == onnxruntime.__version__, suite
    cases = {
        tc.get("name"): {p.get("name"): p.get("value") for p in tc.iter("property")} for tc in root.iter("testcase")
    }
    (cell,) = [c for c in json.loads((tmp_path / "r.json").read_text())["results"] if c["pass_id"] == "ort:basic"]
    assert len(cell["model_sha256"]) == 64
    assert cases["common | ort:basic | local"]["model_sha256"] == cell["model_sha256"], cases
    assert cases["common | ort:basic | local"]["onnxruntime"] == onnxruntime.__version__, cases
    # and `passcheck report --format junit` of the stored JSON report says the same
    r = cli("report", tmp_path / "r.json", "--format", "junit", "--out", tmp_path / "again.xml")
    assert r.returncode == 0, r.stderr
    again = ET.parse(tmp_path / "again.xml").getroot()
    assert {p.get("name"): p.get("value") for p in again.find("testsuite").find("properties")} == suite


def test_an_unwritable_passcheck_write_baseline_is_a_usage_error_before_any_test_runs(tmp_path):
    # was: every test ran, then pytest's terminal summary died in a FileNotFoundError traceback (exit 1)
    (tmp_path / "test_x.py").write_text("def test_x():\n    pass\n")
    for bad, why in ((tmp_path / "no" / "k.json", "does not exist"), (tmp_path, "is a directory")):
        r = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-q", "test_x.py"]
            + [f"--passcheck-write-baseline={bad}"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert r.returncode == 4 and "Traceback" not in r.stdout + r.stderr, r.stdout + r.stderr
        assert f"--passcheck-write-baseline {bad}: " in r.stderr and why in r.stderr, r.stderr
        assert "1 passed" not in r.stdout


def test_feeds_the_model_s_input_declarations_rule_out_are_a_usage_error_not_a_finding(tmp_path):
    # was: an .npz whose array is int64 (or [3, 5]) for an input declared FLOAT [N, 4] gave the form itself an
    # `input` [rejected] finding ("onnxruntime cannot run this form"), every pass unchecked, exit 1: the user's
    # feed file blamed on the model
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
    w = numpy_helper.from_array(np.eye(4, dtype=np.float32), "w")
    g = helper.make_graph([helper.make_node("MatMul", ["x", "w"], ["y"])], "g", [x], [y], [w])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, str(tmp_path / "m.onnx"))
    for name, arr, said in (
        ("dtype", np.ones((3, 4), np.int64), "the array is int64 [3, 4]"),
        ("shape", np.ones((3, 5), np.float32), "the array is float32 [3, 5]"),
        ("rank", np.ones((12,), np.float32), "the array is float32 [12]"),
    ):
        np.savez(tmp_path / f"{name}.npz", x=arr)
        r = cli("check", tmp_path / "m.onnx", "--feeds", tmp_path / f"{name}.npz", "--pass", "ort:basic", "-q")
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stdout + r.stderr
        assert "input 'x' is declared float32 ['?', 4]" in r.stderr and said in r.stderr, r.stderr
        assert len(r.stderr.strip().splitlines()) == 1 and "cells" not in r.stdout, r.stdout + r.stderr
    np.savez(tmp_path / "good.npz", x=np.ones((3, 4), np.float32))
    r = cli("check", tmp_path / "m.onnx", "--feeds", tmp_path / "good.npz", "--pass", "ort:basic", "-q")
    assert r.returncode == 0, r.stdout + r.stderr
