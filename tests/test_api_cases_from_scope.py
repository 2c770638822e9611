"""``passcheck.api.run(cases_from=…)`` scopes the user modules it imports to the run: a script or test
calling it twice with two folders' copies of one saved case (two hunts of one base) gets each folder's
case, and no "duplicate case id" (the same scope as ``passcheck.cli.main``'s)."""

from __future__ import annotations

from passcheck import api
from passcheck.cases import load_path, registry
from passcheck.cases.scope import user_modules_scoped

CASE = """
from onnx import TensorProto, helper
from passcheck.cases import Case, Form, register


def _op():
    g = helper.make_graph(
        [helper.make_node("{op}", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


register(Case(id="scope/one", forms={{"common": Form(_op), "{form}": Form(_op, "the same")}}, doc="{op}", opset=18))
"""


def _saved(tmp_path, folder: str, op: str, form: str = "same"):
    path = tmp_path / folder / "hunt_x.py"
    path.parent.mkdir()
    path.write_text(CASE.format(op=op, form=form))
    return path


def test_one_case_id_saved_in_two_folders_runs_from_each(tmp_path):
    for folder, op, form in (("a", "Relu", "same"), ("b", "Abs", "other")):
        report = api.run(["scope/one"], ["onnx:infer-shapes"], cases_from=[_saved(tmp_path, folder, op, form)])
        assert {c.form for c in report.cells} == {"common", form}  # this folder's case, not the last run's
        assert not report.unchecked, [c.verdict for c in report.cells]
        assert "scope/one" not in registry()


def test_modules_loaded_before_the_run_are_the_callers(tmp_path):
    path = _saved(tmp_path, "a", "Relu")
    with user_modules_scoped():
        load_path(path)
        api.run(["scope/one"], ["onnx:infer-shapes"], cases_from=[path])
        assert "scope/one" in registry()  # the caller's own import outlives the run
    assert "scope/one" not in registry()


def test_a_failing_run_takes_its_modules_back(tmp_path):
    path = _saved(tmp_path, "a", "Relu")
    try:
        api.run(["scope/one"], ["no-such:pass"], cases_from=[path])
    except Exception:  # noqa: BLE001 - the unknown pass id; what matters is the registry after it
        pass
    assert "scope/one" not in registry()


def test_the_library_a_user_module_loads_at_import_outlives_its_scope(tmp_path):
    # a fresh interpreter: the library is loaded first by the user module's own registry() call, inside its import
    import subprocess
    import sys

    path = tmp_path / "derived.py"
    path.write_text("from passcheck.cases import registry\n\nBASES = len(registry())\n")
    code = (
        "from passcheck.cases import load_path, registry\n"
        "from passcheck.cases.scope import user_modules_scoped\n"
        f"with user_modules_scoped():\n    load_path({str(path)!r})\n"
        "print(len(registry()))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    library = subprocess.run(  # a fresh interpreter's library, as this process's may hold other tests' cases
        [sys.executable, "-c", "from passcheck.cases import registry\nprint(len(registry()))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert int(out.stdout) == int(library.stdout) > 0, out.stderr
