"""What a new user broke (session 18): an option prefix taken for another option, a run that checked
nothing exiting 0, an unknown onnxscript rule listing every rule, repro of a ``check`` report run from
another folder, a model with no graph outputs judged ``ok`` under every pass."""

from __future__ import annotations

from tests._inproc import cli


def test_an_option_prefix_is_unknown_not_the_option_it_begins():
    # was: `list --cases` parsed as `--cases-from` ("argument --cases-from: expected one argument")
    r = cli("list", "--cases")
    assert r.returncode == 2 and "unrecognized arguments: --cases" in r.stderr, r.stderr
    assert "cases-from" not in r.stderr and "Traceback" not in r.stderr
    assert cli("run", "--cas", "optional-input/conv-bn", "--pass", "ort:basic").returncode == 2


def test_a_run_whose_every_cell_is_skipped_fails_and_says_nothing_was_checked(tmp_path):
    # was: "20 cells: 0 unexpected findings …, 20 skipped" and exit 0 for a run that judged nothing
    (tmp_path / "future.py").write_text(
        "from onnx import TensorProto, helper\n"
        "from passcheck.case_model import Case, Form\n"
        "from passcheck.cases import register\n\n"
        "def _relu():\n"
        "    v = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in 'xy']\n"
        "    g = helper.make_graph([helper.make_node('Relu', ['x'], ['y'])], 'g', v[:1], v[1:])\n"
        "    return helper.make_model(g, opset_imports=[helper.make_opsetid('', 17)])\n\n"
        "register(Case(id='mine/future', forms={'common': Form(_relu), 'again': Form(_relu)},\n"
        "    doc='Relu; valid from a future onnx.', opset=17, min_onnx='99.0'))\n"
    )
    r = cli(
        "run",
        "--cases-from",
        tmp_path / "future.py",
        "--case",
        "mine/*",
        "--pass",
        "ort:disabled",
        "--markdown",
        tmp_path / "r.md",
    )
    assert r.returncode == 1, r.stdout + r.stderr
    assert "4 skipped" in r.stdout and "NOTHING CHECKED" in r.stdout, r.stdout
    assert "NOTHING CHECKED" in (tmp_path / "r.md").read_text()


def _conv_bn(path):
    """Conv with its bias written ``""`` + BatchNormalization: ort:basic fuses the BatchNormalization
    into the Conv of the form without the ``""`` and keeps it in this one (a parity finding)."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    inits = [numpy_helper.from_array(rng.random((4, 3, 3, 3), dtype=np.float32), "w")] + [
        numpy_helper.from_array(np.full(4, v, np.float32), n) for n, v in (("s", 1), ("b", 0), ("mu", 0), ("var", 1))
    ]
    g = helper.make_graph(
        [
            helper.make_node("Conv", ["x", "w", ""], ["c"]),
            helper.make_node("BatchNormalization", ["c", "s", "b", "mu", "var"], ["y"]),
        ],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 6, 6])],
        inits,
    )
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    m.ir_version = 8
    onnx.save(m, str(path))


def test_repro_of_a_check_report_runs_from_another_folder(tmp_path, monkeypatch):
    # was: the report recorded `passcheck check convbn.onnx …`, so `passcheck repro` run from anywhere
    # but the folder the check ran in said "convbn.onnx: no such file" (exit 2)
    (tmp_path / "work").mkdir()
    (tmp_path / "elsewhere").mkdir()
    _conv_bn(tmp_path / "work" / "convbn.onnx")
    monkeypatch.chdir(tmp_path / "work")
    r = cli(
        "check",
        "convbn.onnx",
        "--mutations",
        "--form",
        "omitted-optional-input",
        "--pass",
        "ort:basic",
        "--json",
        "r.json",
        "-q",
    )
    assert r.returncode == 1 and f"reproduce: passcheck check {tmp_path / 'work' / 'convbn.onnx'}" in r.stdout, r.stdout
    monkeypatch.chdir(tmp_path / "elsewhere")
    r = cli("repro", tmp_path / "work" / "r.json", "--out", "rp")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "elsewhere" / "rp" / "repro.py").exists()


def _no_outputs():
    """A Relu whose result is no graph output: a graph with no outputs (the onnx checker accepts it)."""
    from onnx import TensorProto, helper

    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["r"])], "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])], []
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_a_model_without_graph_outputs_is_refused_not_judged_ok(tmp_path):
    # was: `input=rejected` (onnxruntime: "At least one output should be requested") and every pass `ok`,
    # though no pass result was compared
    import onnx

    onnx.save(_no_outputs(), str(tmp_path / "none.onnx"))
    r = cli("check", tmp_path / "none.onnx", "--pass", "ort:basic")
    assert r.returncode == 2 and "has no outputs" in r.stderr and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "=ok" not in r.stdout


def test_a_hunt_that_ran_no_item_fails_and_says_nothing_was_checked(tmp_path):
    # was: a hunt that ran no item (`hunt --budget 1s` spent before the first item: "ort:disabled: 0 items, …")
    # printed "no finding the rewrites are to blame for" and exited 0. Shard 2/2 of a one-item budget runs
    # no step of its own whatever the machine's speed.
    args = ("--pass", "ort:basic", "--case", "optional-input/conv-bn", "--no-coverage", "--progress", "none")
    r = cli("hunt", "--budget", "1items", "--shard", "2/2", *args, "--out", tmp_path / "h")
    assert r.returncode == 1, r.stdout + r.stderr
    assert "NOTHING CHECKED: no item ran its pass in this hunt (items: 1 other-shard)" in r.stdout, r.stdout
    ran = cli("hunt", "--budget", "1items", "--shard", "1/2", *args, "--out", tmp_path / "h1")
    assert "NOTHING CHECKED" not in ran.stdout and "1 done" in ran.stderr, ran.stdout + ran.stderr


def test_an_empty_cases_from_folder_is_refused_by_every_command_that_takes_it(tmp_path):
    # was: `run` refused it, while `list`, `export` and `hunt` went on with the built-in library alone (exit 0)
    (tmp_path / "empty").mkdir()
    for argv in (("list",), ("export", tmp_path / "out"), ("run",)):
        r = cli(*argv, "--cases-from", tmp_path / "empty")
        assert r.returncode == 2 and "registers no case" in r.stderr and "Traceback" not in r.stderr, (argv, r.stderr)


def test_the_api_refuses_a_model_without_graph_outputs_too():
    # was: passcheck.check_model gave `ok` cells for every pass of a model whose outputs could not be compared
    import pytest

    import passcheck

    with pytest.raises(passcheck.PasscheckError, match="has no outputs"):
        passcheck.check_model(_no_outputs(), ["ort:basic"], isolation=False)


def test_the_cells_a_root_cause_also_explains_name_the_form_each_was_compared_with(tmp_path):
    # was: "also explains 5: common | ort:basic | parity [missed-optimization]; common | ort:basic | parity …" five
    # times the same words, the rewrites that fused where `common` did not left unnamed
    _conv_bn(tmp_path / "convbn.onnx")
    r = cli("check", tmp_path / "convbn.onnx", "--mutations", "--pass", "ort:basic", "--markdown", tmp_path / "r.md")
    # the parity root cause's line (a form's own finding, e.g. onnxruntime refusing BatchNormalization's optional
    # outputs written as "", is another root cause with its own line)
    also = next(line for line in r.stdout.splitlines() if "also explains" in line and "common vs " in line)
    parts = also.split(": ", 1)[1].split("; ")
    assert len(parts) > 1 and len(set(parts)) == len(parts), also
    assert all(p.startswith("common vs ") for p in parts), also
    md = (tmp_path / "r.md").read_text()
    assert all(f"{p.split(' | ')[0]} \\| `ort:basic`" in md for p in parts), md


def test_a_matrix_whose_every_cell_is_skipped_fails_and_says_so():
    # was: exit 0 under "4 cells in 1 environments: … 4 skipped"
    import io

    from rich.console import Console

    from passcheck.matrix import report, verdict
    from passcheck.records import CellResult

    cells = [
        CellResult("mine/future", f, "ort:basic", "skipped", env="onnx-1.18", error="valid from onnx 99.0")
        for f in "ab"
    ]
    out = io.StringIO()
    report.render_terminal(cells, {"onnx-1.18": {"onnx": "1.18.0"}}, Console(file=out, width=200), tables=False)
    assert "NOTHING CHECKED" in out.getvalue(), out.getvalue()
    assert verdict.exit_code(cells, {"onnx-1.18": {"onnx": "1.18.0"}}) == 1
    assert verdict.exit_code(cells, {"onnx-1.18": {"onnx": "1.18.0"}}, exit_zero=True) == 0
