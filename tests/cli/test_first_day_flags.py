"""Flags a new user tries on the first day: a relative ``repro --out`` and a tiny ``--timeout`` through the
console script, a ``--cases-from`` module with no case and one path for two outputs in this process."""

import json
import os
import subprocess
import sys
from pathlib import Path

import onnx
import pytest
from onnx import TensorProto, helper

from tests._inproc import cli

PASSCHECK = str(Path(sys.executable).with_name("passcheck"))
CASE = "optional-input/conv-bn"
ID = f"{CASE}:empty-name|ort:basic|parity|missed-optimization"


def _cli(*args, cwd):
    return subprocess.run([PASSCHECK, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=900)


@pytest.fixture(scope="module")
def relu(tmp_path_factory):
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    path = tmp_path_factory.mktemp("relu") / "relu.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]), str(path))
    return path


def test_repro_with_a_relative_out_folder_reproduces(tmp_path):
    assert _cli("run", "--case", CASE, "--pass", "ort:basic", "--json", "r.json", "-q", cwd=tmp_path).returncode == 1
    p = _cli("repro", "r.json", "--finding", ID, "--out", "rel/dir", "--no-attribute", cwd=tmp_path)
    assert p.returncode == 0, p.stderr[-2000:]
    assert "checked here: exit 1" in p.stdout and (tmp_path / "rel/dir/repro.py").is_file()


#: A checker that outlasts any time limit on the marked model (a sitecustomize on PYTHONPATH, imported by
#: passcheck and its isolation worker alike), so the limit is met whatever the machine's load.
SLOW_CHECKER = """\
import onnx.checker, time
_check = onnx.checker.check_model
def check_model(model, *args, **kwargs):
    if getattr(model, "doc_string", "") == "passcheck-test: slow checker":
        time.sleep(60)
    return _check(model, *args, **kwargs)
onnx.checker.check_model = check_model
"""


def test_a_time_limit_is_not_an_invalid_model(relu, tmp_path):
    m = onnx.load(str(relu))
    m.doc_string = "passcheck-test: slow checker"
    onnx.save(m, str(tmp_path / "slow.onnx"))
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(SLOW_CHECKER)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "site"), os.environ.get("PYTHONPATH", "")])}
    p = subprocess.run(
        [PASSCHECK, "check", "slow.onnx", "--pass", "onnx:infer-shapes", "--timeout", "2", "--json", "r.json", "-q"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=900,
        env=env,
    )
    assert p.returncode in (0, 1) and "Traceback" not in p.stderr, p.stderr[-2000:]
    cells = json.loads((tmp_path / "r.json").read_text())["results"]
    assert not [f for c in cells for f in c["findings"] if f["kind"] == "invalid-model"]
    why = next(c["unchecked"]["validity"] for c in cells if c["pass_id"] == "input")
    assert "no result after 2 s" in why and "not a verdict" in why


def test_cases_from_a_module_with_no_case_is_refused(tmp_path):
    (tmp_path / "empty_cases.py").write_text("SIZE = 3\n")
    p = cli("run", "--cases-from", "empty_cases.py", "--pass", "onnx:infer-shapes", "--json", "r.json", cwd=tmp_path)
    assert p.returncode == 2 and not (tmp_path / "r.json").exists()
    assert p.stderr.strip().splitlines() == [
        "passcheck: error: --cases-from empty_cases.py: registers no case (nor pass); "
        "a case module calls passcheck.cases.register(...) at import; nothing was run"
    ]


def test_one_path_for_stream_and_json_is_refused_up_front(relu, tmp_path):
    p = cli("check", relu, "--pass", "onnx:infer-shapes", "--stream", "out.json", "--json", "./out.json", cwd=tmp_path)
    assert p.returncode == 2 and not (tmp_path / "out.json").exists()
    assert "both name" in p.stderr and len(p.stderr.strip().splitlines()) == 1
