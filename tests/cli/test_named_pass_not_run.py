"""A pass the user names that does not run on a form checked nothing: ``unchecked``, exit 1 (0 only
with ``--allow-unavailable``); a default pass a model is outside of stays ``n/a`` with its reason in
the terminal and JSON summary. ``ort:symbolic-shape-infer`` states opset 7 and above (its
``precondition``, from onnxruntime's symbolic_shape_infer.py)."""

from __future__ import annotations

import json

import onnx
import pytest
from onnx import helper

from passcheck.cli import main
from passcheck.records import NOT_RUN
from passcheck.testing import FindingsError, assert_model_ok

SYMBOLIC = "ort:symbolic-shape-infer"
REASON = "opset 7 and above"


def relu6(node_name: str = "") -> onnx.ModelProto:
    """Relu at opset 6 (builders.model starts at 7), IR version 3 (onnx 1.1's)."""
    x, y = (helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, [2, 3]) for n in "xy")
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name=node_name)], "relu6", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 6)], ir_version=3)


@pytest.fixture
def opset6(tmp_path):
    path = tmp_path / "relu6.onnx"
    onnx.save(relu6(), path)
    return path


def test_a_named_pass_that_did_not_run_fails_check_and_compare(opset6, tmp_path, capsys):
    assert main(["check", str(opset6), "--pass", SYMBOLIC, "--json", str(tmp_path / "r.json"), "-q"]) == 1
    out = capsys.readouterr().out
    assert f"UNCHECKED model/relu6 | common | {SYMBOLIC} | local: {NOT_RUN}: " in out and REASON in out
    doc = json.loads((tmp_path / "r.json").read_text())
    cell = next(c for c in doc["results"] if c["pass_id"] == SYMBOLIC)
    assert cell["verdict"] == "unchecked" and cell["status"] == "unavailable"
    assert doc["summary"]["unavailable"] == []  # not a quiet n/a
    assert main(["compare", str(opset6), str(opset6), "--pass", SYMBOLIC, "-q"]) == 1


def test_allow_unavailable_keeps_it_na_with_the_reason(opset6, capsys):
    assert main(["check", str(opset6), "--pass", SYMBOLIC, "--allow-unavailable", "-q"]) == 0
    out = capsys.readouterr().out
    assert f"N/A {SYMBOLIC}: " in out and REASON in out and "UNCHECKED" not in out


def test_a_default_pass_the_model_is_outside_of_is_na_in_terminal_and_json(opset6, tmp_path, capsys):
    assert main(["check", str(opset6), "--json", str(tmp_path / "r.json"), "-q"]) == 0
    assert f"N/A {SYMBOLIC}: " in capsys.readouterr().out
    (entry,) = json.loads((tmp_path / "r.json").read_text())["summary"]["unavailable"]
    assert entry["pass"] == SYMBOLIC and REASON in entry["reason"] and entry["cells"] == 1


# self-contained: the isolation worker loads the module too, and cannot import this test module
CASE_MODULE = """
import onnx
from onnx import helper
from passcheck.cases import Case, Form, register


def relu6(node_name=""):
    x, y = (helper.make_tensor_value_info(n, onnx.TensorProto.FLOAT, [2, 3]) for n in "xy")
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"], name=node_name)], "relu6", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 6)], ir_version=3)


register(Case(id="user/relu-opset6-{n}", forms={"common": Form(relu6), "named": Form(lambda: relu6("r"))},
              doc="Relu at opset 6", opset=6, passes=("ort:symbolic-shape-infer",)))
"""


def test_run_fails_on_a_named_pass_and_not_on_a_case_default(tmp_path, capsys):
    def run(n: int, *extra: str) -> int:  # a module loads once per process: one per call
        (tmp_path / f"relu6_case_{n}.py").write_text(CASE_MODULE.replace("{n}", str(n)))
        return main(
            ["run", "--cases-from", str(tmp_path / f"relu6_case_{n}.py"), "--case", f"user/*-{n}", "-q", *extra]
        )

    assert run(1, "--pass", SYMBOLIC) == 1
    assert f"{NOT_RUN}: " in capsys.readouterr().out
    assert run(2, "--pass", SYMBOLIC, "--allow-unavailable") == 0
    assert run(3) == 0  # the case's own pass list, not the user's: n/a with the reason
    assert f"N/A {SYMBOLIC}: " in capsys.readouterr().out


def test_the_testing_helpers_fail_on_it_whatever_oracles_are_asked(opset6):
    for oracles in (None, ["numeric"]):
        with pytest.raises(FindingsError, match=NOT_RUN):
            assert_model_ok(str(opset6), [SYMBOLIC], oracles=oracles)


def test_run_pass_the_markers_path_sees_it_unchecked(tmp_path):
    from passcheck.cases import load_path
    from passcheck.testing import run_pass

    (tmp_path / "relu6_case_9.py").write_text(CASE_MODULE.replace("{n}", "9"))
    load_path(tmp_path / "relu6_case_9.py")
    cells = run_pass(SYMBOLIC, "user/relu-opset6-9")
    assert cells and all(c.verdict == "unchecked" and REASON in c.unchecked[NOT_RUN] for c in cells), cells
