"""A new user's trial (session 39, docs/recall.md round 18j): the rough edges session 38 left — ``merge`` without
``--out`` writing into the working folder unsaid, ``compare``'s relative error of a zero expected value, ``triage`` of
an interrupted run's report not saying it is partial."""

from __future__ import annotations

import json

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.oracles.numeric import compare
from tests._inproc import cli


def _model(path, op: str = "Relu") -> None:
    g = helper.make_graph(
        [helper.make_node(op, ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)]), str(path))


@pytest.fixture(scope="module")
def hunt(tmp_path_factory):
    """A real one-item hunt's folder."""
    root = tmp_path_factory.mktemp("nu39")
    argv = ["hunt", "--budget", "1items", "--case", "optional-input/conv-mul", "--pass", "onnx:infer-shapes"]
    run = cli(*argv, "--no-variation", "--no-compose", "--out", root / "h", "--progress", "none")
    assert run.returncode in (0, 1), run.stderr
    return root / "h"


def test_merge_without_out_names_the_folder_it_writes_before_writing_it(hunt, tmp_path):
    """Without ``--out`` the merge goes to ``passcheck-hunt`` in the working folder (``passcheck-matrix`` for matrix
    folders), not beside the folders merged: the first line says so with its absolute path."""
    run = cli("merge", hunt, "-q", cwd=tmp_path)
    assert run.returncode in (0, 1), run.stderr
    where = tmp_path / "passcheck-hunt"
    assert (where / "hunt-state.json").is_file()
    first = run.stderr.splitlines()[0]
    assert first == f"passcheck: no --out given: writing the merge into {where.resolve()}", run.stderr
    given = cli("merge", hunt, "-q", "--out", tmp_path / "m2", cwd=tmp_path)
    assert given.returncode in (0, 1) and "no --out given" not in given.stderr, given.stderr


def test_a_zero_expected_value_gets_its_absolute_error_not_a_relative_one():
    """``|a - e| <= atol + rtol * |e|``: at ``e = 0`` only atol bounds the error and the relative error is undefined
    (before: "max rel err 1e+308", the error over the smallest float64); the message gives the absolute error there
    and the relative error of the failing elements whose expected value is not 0."""
    only_zero = compare(np.array([1.0, 1.0]), np.array([0.0, 1.0]))
    assert not only_zero.ok
    assert "each expected 0 (relative error undefined): abs err up to 1 " in only_zero.message, only_zero.message
    assert "max rel err" not in only_zero.message and "e+30" not in only_zero.message
    both = compare(np.array([0.5, 2.5, 0.0]), np.array([0.0, 2.0, 0.0]))
    assert "max rel err 0.25; 1 of them expected 0 (relative error undefined): abs err up to 0.5" in both.message
    plain = compare(np.array([2.5]), np.array([2.0]))
    assert "max rel err 0.25 (atol=0.5 would pass)" in plain.message, plain.message


def test_compare_of_two_models_differing_where_the_reference_is_zero_prints_the_absolute_error(tmp_path):
    """The command of session 38's trial: Relu against Sigmoid, on random feeds whose negative half Relu (the
    reference, the first model) maps to 0."""
    _model(tmp_path / "relu.onnx")
    _model(tmp_path / "sig.onnx", "Sigmoid")
    run = cli("compare", tmp_path / "relu.onnx", tmp_path / "sig.onnx")
    text = run.stdout + run.stderr
    assert run.returncode == 2 and "does not compute what" in text, text  # compare's refusal of unequal models
    assert "e+30" not in text and "expected 0 (relative error undefined): abs err up to 0." in text, text


def test_triage_of_an_interrupted_runs_report_says_it_holds_part_of_the_run(tmp_path):
    """As ``attribute`` (M314): a partial report (``"partial": true``, what Ctrl-C leaves) triaged to no candidate
    is about the cells it holds; the stderr line and the closing line say so."""
    _model(tmp_path / "m.onnx")
    run = cli("check", tmp_path / "m.onnx", "--pass", "ort:basic", "--json", tmp_path / "r.json", "-q")
    assert run.returncode == 0, run.stderr
    whole = cli("triage", tmp_path / "r.json", "--out", tmp_path / "t1")
    text = whole.stderr + whole.stdout
    assert whole.returncode == 0 and "was interrupted" not in text and "partial report" not in text, text
    doc = json.loads((tmp_path / "r.json").read_text())
    (tmp_path / "r.json").write_text(json.dumps({**doc, "partial": True}))
    part = cli("triage", tmp_path / "r.json", "--out", tmp_path / "t2")
    assert part.returncode == 0, part.stderr
    assert "r.json: the run that wrote it was interrupted; the cells it had not reached" in part.stderr, part.stderr
    assert "(from 1 partial report: " in part.stdout, part.stdout


def test_check_with_a_dim_bound_to_zero_says_its_values_were_compared_by_shape_only(tmp_path):
    """``--bind N=0`` (IR.md: an empty tensor is valid): every annotation is checked on the empty run (its shape is
    observed), but an output of 0 elements has no value to compare, so ``ok`` promises dtype and shape there only;
    the summary says which outputs, and says nothing when the binding gives them elements."""
    g = helper.make_graph(
        [helper.make_node("MatMul", ["x", "w"], ["t"]), helper.make_node("Relu", ["t"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 3])],
        [onnx.numpy_helper.from_array(np.ones((4, 3), np.float32), "w")],
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), str(tmp_path / "dyn.onnx"))
    empty = cli("check", tmp_path / "dyn.onnx", "--bind", "N=0", "--pass", "ort:basic", "--markdown", tmp_path / "e.md")
    assert empty.returncode == 0, empty.stderr
    line = "values: compared by dtype and shape only, no element in any run: y (1 cell)"
    assert line in empty.stdout, empty.stdout
    assert line in (tmp_path / "e.md").read_text(encoding="utf-8")
    assert "annotations: 4 annotated, 4 checked, 0 unobserved" in empty.stdout, empty.stdout
    two = cli("check", tmp_path / "dyn.onnx", "--bind", "N=2", "--pass", "ort:basic")
    assert two.returncode == 0 and "values: compared" not in two.stdout, two.stdout
