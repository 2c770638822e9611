"""``passcheck.cli.main`` called twice in one process with the same ``--cases-from`` runs the module's
cases both times: the second import is cached and registers nothing new, which is not "registers no case"
(a pytest session, the plugin or a notebook calls ``main`` more than once)."""

from __future__ import annotations

from passcheck.cli import main

CASE = """
from onnx import TensorProto, helper
from passcheck.cases import Case, Form, register


def _relu():
    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


FORMS = {"common": Form(_relu), "same": Form(_relu, "the same")}
register(Case(id="twice/relu", forms=FORMS, doc="y = Relu(x)", opset=18))
"""


def test_the_same_case_module_runs_in_two_in_process_calls(tmp_path, capsys):
    module = tmp_path / "twice_cases.py"
    module.write_text(CASE)
    for i in range(2):
        code = main(["run", "--cases-from", str(module), "--case", "twice/relu", "--pass", "onnx:infer-shapes", "-q"])
        err = capsys.readouterr().err
        assert code == 0 and "registers no case" not in err, (i, code, err)


def test_a_module_that_registers_nothing_is_still_an_error(tmp_path, capsys):
    module = tmp_path / "empty_cases.py"
    module.write_text("X = 1\n")
    assert main(["run", "--cases-from", str(module), "--pass", "onnx:infer-shapes", "-q"]) == 2
    assert "registers no case" in capsys.readouterr().err


def test_two_case_modules_of_one_file_name_both_register(tmp_path, capsys):
    """Two projects' ``cases.py`` in one process: the second is its own module, not the first one again."""
    first, second = tmp_path / "a" / "cases.py", tmp_path / "b" / "cases.py"
    for path, case_id in ((first, "twice/relu-a"), (second, "twice/relu-b")):
        path.parent.mkdir()
        path.write_text(CASE.replace('id="twice/relu"', f'id="{case_id}"'))
    assert main(["run", "--cases-from", str(first), "--case", "twice/relu-a", "--pass", "onnx:infer-shapes", "-q"]) == 0
    capsys.readouterr()
    code = main(["run", "--cases-from", str(second), "--case", "twice/relu-b", "--pass", "onnx:infer-shapes", "-q"])
    err = capsys.readouterr().err
    assert code == 0 and "twice/relu-b" not in err, (code, err)


def test_one_case_id_saved_in_two_folders_runs_from_each_in_turn(tmp_path, capsys):
    """A hunt's saved case module copied to two folders (two hunts of one base in one process): each
    in-process command runs its own, and the second is no duplicate of the first command's case."""
    first, second = tmp_path / "a" / "hunt_x.py", tmp_path / "b" / "hunt_x.py"
    for path in (first, second):
        path.parent.mkdir()
        path.write_text(CASE)
    for path in (first, second):
        code = main(["run", "--cases-from", str(path), "--case", "twice/relu", "--pass", "onnx:infer-shapes", "-q"])
        err = capsys.readouterr().err
        assert code == 0 and "duplicate" not in err, (path, code, err)


def test_a_commands_cases_are_taken_back_when_it_ends(tmp_path, capsys):
    from passcheck.cases import registry

    module = tmp_path / "scoped_cases.py"
    module.write_text(CASE.replace('id="twice/relu"', 'id="twice/scoped"'))
    argv = ["run", "--cases-from", str(module), "--case", "twice/scoped", "--pass", "onnx:infer-shapes", "-q"]
    assert main(argv) == 0
    assert "twice/scoped" not in registry()
