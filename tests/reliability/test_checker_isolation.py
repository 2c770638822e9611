"""The onnx checker and ``passcheck export``'s model runs go through the isolation worker: a
checker that aborts on a model is a finding about that model (the verdict names the signal), a
form that crashes onnxruntime loses only its expected outputs; ``--no-isolation`` keeps them in
passcheck's own process (the opt-out, where such a crash ends the run). The mutation gate
(``check --mutations``, ``mutate``, ``compare``, the hunt's probe) and reduce's onnxruntime
predicate ask the same worker: an original it dies on is refused in one line, a mutant is left
out unverified, a reduce candidate does not hold.

The checker crash is planted: a ``sitecustomize`` on PYTHONPATH (imported by passcheck and by
its spawned worker alike) makes ``onnx.checker.check_model`` call ``abort()`` on a model whose
doc_string asks for it (``MUTANT_MARK``: only once a rewrite added a Cast, i.e. on the
``float64-compute`` mutant), as onnx's C++ checker does on some malformed models. The onnxruntime
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
MUTANT_MARK = "abort the checker on a Cast"
INFER_MARK = "abort shape inference"
SITECUSTOMIZE = textwrap.dedent(f"""
    import os

    import onnx.checker
    import onnx.shape_inference

    _real = onnx.checker.check_model
    _real_infer = onnx.shape_inference.infer_shapes


    def _infer_shapes(m, *args, **kwargs):
        if getattr(m, "doc_string", "") == {INFER_MARK!r}:
            os.abort()
        return _real_infer(m, *args, **kwargs)


    onnx.shape_inference.infer_shapes = _infer_shapes


    def _check_model(m, *args, **kwargs):
        doc = getattr(m, "doc_string", "")
        if doc == {MARK!r} or (doc == {MUTANT_MARK!r} and any(n.op_type == "Cast" for n in m.graph.node)):
            os.abort()
        return _real(m, *args, **kwargs)


    onnx.checker.check_model = _check_model
""")
CASES = textwrap.dedent("""
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
        return model([node("Max", ["x", "zero"], ["y"])], [vi("x", FLOAT, ["N", 3])], [vi("y", FLOAT, ["N", 3])],
                     opset=18, initializers=[tensor("zero", np.zeros((), np.float32))])


    def marked():  # the planted sitecustomize aborts the checker on it
        m = relu()
        m.doc_string = MARK_VALUE
        return m


    register(Case(id="planted/marked", doc="Relu vs Max(x, 0); the checker aborts on the first", opset=18,
                  forms={"common": Form(marked), "max": Form(max0)}))
    register(Case(id="planted/bn9", doc="a form onnxruntime crashes on", opset=9,
                  forms={"common": Form(relu9), "bn9": Form(bn9)}))
""").replace("MARK_VALUE", repr(MARK))


def _relu():
    return model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, ["N", 3])], [vi("y", FLOAT, ["N", 3])], opset=18)


def _aborting_relu(path: Path, mark: str = MARK) -> Path:
    m = _relu()
    m.doc_string = mark
    onnx.save(m, str(path))
    return path


def _planted_path(tmp: Path) -> str:
    """PYTHONPATH with the planted ``sitecustomize`` first (for passcheck and its workers)."""
    site = tmp / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    return os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])


def _passcheck(tmp: Path, *argv: str, plant: bool = True, every: str | None = None) -> subprocess.CompletedProcess:
    """``python -m passcheck ARGV`` in ``tmp``; ``every``: $PASSCHECK_PROGRESS_EVERY (a tiny one makes any
    progress line printed before a one-line error certain, not a matter of load)."""
    (tmp / "planted_cases.py").write_text(CASES)
    env = {**os.environ, "PYTHONPATH": _planted_path(tmp) if plant else os.environ.get("PYTHONPATH", "")}
    if every is not None:
        env["PASSCHECK_PROGRESS_EVERY"] = every
    return subprocess.run(
        [sys.executable, "-m", "passcheck", *argv], capture_output=True, text=True, cwd=tmp, env=env, timeout=300
    )


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
    proc = _passcheck(
        tmp_path,
        "run",
        "--cases-from",
        "planted_cases.py",
        "--case",
        "planted/marked",
        "--pass",
        "input",
        "--json",
        "r.json",
    )
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
    proc = _passcheck(
        tmp_path, "export", "out", "--cases-from", "planted_cases.py", "--case", "planted/bn9", plant=False
    )
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
    report = passcheck.check_model(_relu(), ["onnx:infer-shapes"], isolation=isolation)
    assert report.cells and all(c.verdict == "ok" for c in report.cells), [c.findings for c in report.cells]
    assert bool(seen) is not isolation


def _one_line_error(proc: subprocess.CompletedProcess) -> str:
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, (proc.returncode, proc.stderr)
    (line,) = proc.stderr.strip().splitlines()
    return line


@pytest.mark.parametrize(
    "argv",
    [["compare", "m.onnx", "m.onnx", "--pass", "onnx:infer-shapes"], ["mutate", "m.onnx", "--out", "out"]],
    ids=["compare", "mutate"],
)
def test_checker_abort_on_an_original_is_refused_in_one_line(argv, tmp_path):
    _aborting_relu(tmp_path / "m.onnx")
    line = _one_line_error(_passcheck(tmp_path, *argv, every="0.01"))
    assert "m.onnx: the onnx checker killed its process: SIGABRT on this model" in line, line
    assert not (tmp_path / "out").exists()


def test_checker_abort_on_an_original_under_mutations_checks_it_alone(tmp_path):
    _aborting_relu(tmp_path / "m.onnx")
    proc = _passcheck(tmp_path, "check", "m.onnx", "--mutations", "--pass", "onnx:infer-shapes", "--json", "r.json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, (
        proc.stderr
    )  # the input cell's finding, as without --mutations
    assert "--mutations: the onnx checker killed its process: SIGABRT on this model, so no rewrite" in proc.stdout, (
        proc.stdout
    )
    assert {form for form, _ in _cells(tmp_path / "r.json")} == {"common"}


@pytest.mark.parametrize(
    "argv",
    [
        [
            "check",
            "m.onnx",
            "--mutations",
            "--form",
            "float64-compute",
            "--pass",
            "onnx:infer-shapes",
            "--json",
            "r.json",
        ],
        ["mutate", "m.onnx", "--out", "out", "--form", "float64-compute"],
    ],
    ids=["check", "mutate"],
)
def test_checker_abort_on_a_mutant_leaves_it_out_unverified(argv, tmp_path):
    _aborting_relu(tmp_path / "m.onnx", MUTANT_MARK)
    proc = _passcheck(tmp_path, *argv)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr  # neither a finding nor a crash
    said = proc.stderr + proc.stdout
    assert (
        "mutant float64-compute: left out, unverified (rewrite 'float64-compute': "
        "the onnx checker killed its process: SIGABRT"
    ) in said, said
    if argv[0] == "check":
        assert "no mutant could be verified (1 left out): nothing to compare with" in said
        assert {form for form, _ in _cells(tmp_path / "r.json")} == {"common"}
    else:
        assert (
            "no mutant could be verified (1 left out); nothing written" in proc.stdout
            and not (tmp_path / "out").exists()
        )


@pytest.fixture
def planted_worker(tmp_path, monkeypatch):
    """An IsolatedExecutor whose worker imports the planted sitecustomize, and the list of the
    doc_strings of every model checked in this process (the planted abort stays in the worker)."""
    import onnx.checker

    from passcheck.passes.isolation import IsolatedExecutor

    in_process: list[str] = []
    monkeypatch.setattr(onnx.checker, "check_model", lambda m, *a, **k: in_process.append(m.doc_string))
    monkeypatch.setenv("PYTHONPATH", _planted_path(tmp_path))
    with IsolatedExecutor() as ex:
        yield ex, in_process


def _marked(mark: str = MARK):
    m = _relu()
    m.doc_string = mark
    return m


def test_reduce_candidate_the_checker_dies_on_does_not_hold(planted_worker):
    from passcheck.reduce.predicates import OrtParity

    ex, in_process = planted_worker
    holds = OrtParity("basic", ["Relu"], ex)
    assert holds(_marked(), _relu()) is False and holds(_relu(), _marked()) is False  # no crash, not held
    assert in_process == []  # every checker call ran in the worker
    assert holds.checker(_marked()).startswith("the onnx checker killed its process: SIGABRT")


def test_hunt_probe_calls_a_pair_the_checker_dies_on_unverified(planted_worker):
    from passcheck.hunt.probe import Setting, probe
    from passcheck.mutations import mutants

    ex, in_process = planted_worker
    base = _marked(MUTANT_MARK)
    ((form, (mutant, _)),) = mutants(base, ["float64-compute"]).items()
    outcome = probe(Setting("planted/probe"), base, form, mutant, "onnx:infer-shapes", ex)
    assert (outcome.status, outcome.findings) == ("unverified", []), outcome
    assert "the onnx checker killed its process: SIGABRT on the mutant" in outcome.reason
    assert in_process == []


def test_generator_gate_drops_a_pair_the_checker_dies_on(planted_worker):
    from passcheck.engine import feeds_for
    from passcheck.generate.gate import gate
    from passcheck.oracles.validity import Checker

    ex, in_process = planted_worker
    forms = {"common": _relu(), "marked": _marked()}
    v = gate(forms, feeds_for(_relu(), "planted/gate", [{}, {}]), ex.run_model, checker=Checker(ex))
    assert (v.ok, v.category, v.reason) == (False, "tool", "the checker crashes on the uncommon form"), v
    assert in_process == []


def test_shape_inference_abort_on_an_original_is_refused_in_one_line(tmp_path):
    """The rewrites infer shapes in passcheck's process: the original is tried in the worker first."""
    _aborting_relu(tmp_path / "m.onnx", INFER_MARK)
    line = _one_line_error(_passcheck(tmp_path, "mutate", "m.onnx", "--out", "out", every="0.01"))
    assert (
        "m.onnx: onnx shape inference killed its process: SIGABRT on this model, so no rewrite of it can be built"
        in line
    ), line
    # compare builds no rewrite: the model is compared, the pass's crash on it is its finding
    proc = _passcheck(tmp_path, "compare", "m.onnx", "m.onnx", "--pass", "onnx:infer-shapes")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr


def test_shape_inference_abort_under_mutations_checks_the_model_alone(tmp_path):
    _aborting_relu(tmp_path / "m.onnx", INFER_MARK)
    proc = _passcheck(tmp_path, "check", "m.onnx", "--mutations", "--pass", "onnx:infer-shapes", "--json", "r.json")
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, (proc.returncode, proc.stderr)
    assert "--mutations: onnx shape inference killed its process: SIGABRT on this model" in proc.stdout, proc.stdout
    assert {form for form, _ in _cells(tmp_path / "r.json")} == {"common"}


def test_an_executor_keeps_verdicts_across_checkers_but_not_a_death(planted_worker):
    from passcheck.oracles.validity import Checker, CheckerDied

    ex, _ = planted_worker
    asked, real = [], ex.run
    ex.run = lambda *a: asked.append(1) or real(*a)
    assert Checker(ex)(_relu()) is None and len(asked) == 1
    assert Checker(ex)(_relu()) is None and len(asked) == 1  # a later subject's checker: no round trip
    assert Checker(ex).inference_died(_relu()) is None and len(asked) == 1  # asked in the same job
    assert Checker(ex)(_relu(), full_check=False) is None and len(asked) == 2  # another verdict
    first = Checker(ex)(_marked())
    assert first.startswith("the onnx checker killed its process: SIGABRT") and isinstance(first, CheckerDied)
    n = len(asked)  # the pair died, then the checker alone, to say which one died
    again = Checker(ex)(_marked())  # a death is no verdict on the bytes: asked again
    assert again == first and len(asked) == 2 * n - 2


def test_shape_inference_dying_is_told_apart_from_the_checker_after_a_paired_job_died(planted_worker):
    from passcheck.oracles.validity import Checker

    ex, _ = planted_worker
    checker = Checker(ex)
    died = checker.inference_died(_marked(INFER_MARK))
    assert died is not None and died.startswith("onnx shape inference killed its process: SIGABRT")
    assert checker(_marked(INFER_MARK)) is None  # the checker itself accepts it
