"""The onnx checker and ``passcheck export``'s model runs go through the isolation worker: a
checker that aborts on a model is a finding about that model (the verdict names the signal), a
form that crashes onnxruntime loses only its expected outputs; ``--no-isolation`` keeps them in
passcheck's own process (the opt-out, where such a crash ends the run).

The checker crash is planted: a ``sitecustomize`` on PYTHONPATH (imported by passcheck and by
its spawned worker alike) makes ``onnx.checker.check_model`` call ``abort()`` on a model whose
doc_string asks for it, as onnx's C++ checker does on some malformed models. The onnxruntime
crash is real (BatchNormalization-9 with its optional outputs written as "", onnxruntime 1.32).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import onnx
import pytest

from passcheck.cases.builders import FLOAT, model, node, vi

MARK = "abort the checker"
SITECUSTOMIZE = textwrap.dedent(f'''
    import os

    import onnx.checker

    _real = onnx.checker.check_model


    def _check_model(m, *args, **kwargs):
        if getattr(m, "doc_string", "") == {MARK!r}:
            os.abort()
        return _real(m, *args, **kwargs)


    onnx.checker.check_model = _check_model
''')
CASES = textwrap.dedent('''
    import numpy as np

    from passcheck.cases import Case, Form, register
    from passcheck.cases.builders import FLOAT, model, node, tensor, vi


    def relu():
        return model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, ["N", 3])], [vi("y", FLOAT, ["N", 3])], opset=18)


    def bn9():  # onnxruntime 1.32 segfaults running it
        inits = [tensor(n, np.ones(3, np.float32)) for n in ("s", "b", "m", "v")]
        return model([node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "", "", "", ""])],
                     [vi("x", FLOAT, [2, 3, 4])], [vi("y", FLOAT, [2, 3, 4])], opset=9, initializers=inits)


    def relu9():
        return model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, [2, 3, 4])], [vi("y", FLOAT, [2, 3, 4])], opset=9)


    def max0():
        return model([node("Max", ["x", "zero"], ["y"])], [vi("x", FLOAT, ["N", 3])], [vi("y", FLOAT, ["N", 3])], opset=18,
                     initializers=[tensor("zero", np.zeros((), np.float32))])


    def marked():  # the planted sitecustomize aborts the checker on it
        m = relu()
        m.doc_string = MARK_VALUE
        return m


    register(Case(id="planted/marked", doc="Relu vs Max(x, 0); the checker aborts on the first", opset=18,
                  forms={"common": Form(marked), "max": Form(max0)}))
    register(Case(id="planted/bn9", doc="a form onnxruntime crashes on", opset=9, forms={"common": Form(relu9), "bn9": Form(bn9)}))
''').replace("MARK_VALUE", repr(MARK))


def _aborting_relu(path: Path) -> Path:
    m = model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, ["N", 3])], [vi("y", FLOAT, ["N", 3])], opset=18)
    m.doc_string = MARK
    onnx.save(m, str(path))
    return path


def _passcheck(tmp: Path, *argv: str, plant: bool = True) -> subprocess.CompletedProcess:
    site = tmp / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    (tmp / "planted_cases.py").write_text(CASES)
    path = [str(site)] if plant else []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*path, os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "passcheck", *argv], capture_output=True, text=True, cwd=tmp, env=env, timeout=300)


def _cells(report: Path) -> dict[tuple[str, str], dict]:
    return {(c["form"], c["pass_id"]): c for c in json.loads(report.read_text())["results"]}


def test_checker_abort_in_check_is_a_finding(tmp_path):
    _aborting_relu(tmp_path / "m.onnx")
    proc = _passcheck(tmp_path, "check", "m.onnx", "--pass", "onnx:infer-shapes", "--json", "r.json")
    assert proc.returncode == 1, proc.stderr  # a finding, passcheck lives on
    assert "Traceback" not in proc.stderr, proc.stderr
    cell = _cells(tmp_path / "r.json")[("common", "input")]
    assert [f["oracle"] for f in cell["findings"]] == ["validity"], cell
    assert "the onnx checker killed its process: SIGABRT" in cell["findings"][0]["message"], cell


def test_checker_abort_in_run_costs_only_that_verdict(tmp_path):
    proc = _passcheck(tmp_path, "run", "--cases-from", "planted_cases.py", "--case", "planted/marked", "--pass", "input", "--json", "r.json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    cells = _cells(tmp_path / "r.json")
    (finding,) = cells[("common", "input")]["findings"]
    assert "the onnx checker killed its process: SIGABRT" in finding["message"]
    assert cells[("max", "input")]["verdict"] == "ok"  # the worker was replaced for the next form


def test_no_isolation_keeps_the_checker_in_process(tmp_path):
    _aborting_relu(tmp_path / "m.onnx")
    proc = _passcheck(tmp_path, "check", "m.onnx", "--pass", "onnx:infer-shapes", "--no-isolation")
    assert proc.returncode == -6, proc.stderr  # SIGABRT: the opt-out's price


def test_export_survives_a_form_that_crashes_onnxruntime(tmp_path):
    proc = _passcheck(tmp_path, "export", "out", "--cases-from", "planted_cases.py", "--case", "planted/bn9", plant=False)
    assert proc.returncode == 0, proc.stderr
    assert "wrote 2 form(s) of 1 case(s)" in proc.stdout
    common, bn9 = (tmp_path / "out" / "planted" / "bn9" / f / "test_data_set_0" for f in ("common", "bn9"))
    assert (common / "input_0.pb").is_file() and (common / "output_0.pb").is_file()
    assert (bn9 / "input_0.pb").is_file() and not (bn9 / "output_0.pb").exists()  # no run, no expected output


@pytest.mark.parametrize("isolation", [True, False], ids=["isolated", "no-isolation"])
def test_api_check_model_runs_the_checker_where_passes_run(isolation, monkeypatch):
    # in process the (planted) checker is the caller's; isolated it is the worker's unpatched one
    import onnx.checker

    import passcheck

    seen = []
    monkeypatch.setattr(onnx.checker, "check_model", lambda m, *a, **k: seen.append(m.graph.name))
    m = model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, ["N", 3])], [vi("y", FLOAT, ["N", 3])], opset=18)
    report = passcheck.check_model(m, ["onnx:infer-shapes"], isolation=isolation)
    assert report.cells and all(c.verdict == "ok" for c in report.cells), [c.findings for c in report.cells]
    assert bool(seen) is not isolation
