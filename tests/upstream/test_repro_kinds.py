"""``passcheck repro`` beyond onnxruntime missed optimizations: a script per tool family, on real findings.

Each script is run with this interpreter, isolated (``-I``, no PYTHONPATH): it must exit 1 with its
``BUG:`` line while the bug is present, and 0 when the tool under test is swapped for one without
the bug (a planted fix).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys

import onnx.parser
import pytest

from passcheck.attribution.forms import form_model
from passcheck.cli import main
from passcheck.records import Finding
from passcheck.repro import generic
from passcheck.repro.claims import claim
from passcheck.repro.plan import case_feeds, verify
from passcheck.repro.tools import ToolCall, tool_call

IMPORTS_PASSCHECK = re.compile(r"^\s*(import|from)\s+passcheck\b", re.M)
#: A tool that leaves the model as it is: the planted fix for a tool that writes a wrong model.
IDENTITY = ToolCall("def apply(model):\n    return model\n", "model (unchanged)")
ONNX_INFERENCE = ToolCall(
    "def apply(model):\n    return onnx.shape_inference.infer_shapes(model)\n",
    "onnx.shape_inference.infer_shapes(model)",
)


def _run(path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run(
        [sys.executable, "-I", str(path)], capture_output=True, text=True, timeout=300, cwd=path.parent, env=env
    )


#: A case module: y = Reshape(x, target), the target an initializer or a Concat of two Constants.
RESHAPE_CASE = """
import numpy as np

from passcheck.cases import Case, Form, register
from passcheck.cases.builders import FLOAT, model, node, tensor, vi


def _build(concat):
    x, y = vi("x", FLOAT, [2, 3, 4]), vi("y", FLOAT, [None, None])
    if not concat:
        return model([node("Reshape", ["x", "t"], ["y"], name="reshape")], [x], [y], opset=17,
                     initializers=[tensor("t", [2, 12], np.int64)])
    return model([node("Constant", [], ["a"], name="a", value=tensor("a", [2], np.int64)),
                  node("Constant", [], ["b"], name="b", value=tensor("b", [12], np.int64)),
                  node("Concat", ["a", "b"], ["t"], name="concat", axis=0),
                  node("Reshape", ["x", "t"], ["y"], name="reshape")], [x], [y], opset=17)


register(Case(id="repro/reshape-target",
              forms={"common": Form(lambda: _build(False), "initializer"),
                     "concat": Form(lambda: _build(True), "Concat")},
              doc="y = Reshape(x, [2, 12]), the target spelled two ways", opset=17))


def _softmax(axis):
    return model([node("Softmax", ["x"], ["y"], name="softmax", axis=axis)],
                 [vi("x", FLOAT, [2, 3, 4])], [vi("y", FLOAT, [2, 3, 4])], opset=13)


# Softmax-13 normalizes along axis 1 alone, Softmax-12 along the flattened [1:] block: the
# converter's 13 -> 12 step keeps the node as it is (docs/found.md, session 13, row 32).
register(Case(id="repro/softmax-axis",
              forms={"common": Form(lambda: _softmax(1), "axis 1"), "negative": Form(lambda: _softmax(-2), "axis -2")},
              doc="y = Softmax(x, axis=1) at opset 13", opset=13))
"""


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """case → report of one ``passcheck run`` (run lazily)."""
    d = tmp_path_factory.mktemp("runs")
    (d / "reshape_case.py").write_text(RESHAPE_CASE)
    done: dict[str, str] = {}

    def report(case: str, pass_id: str) -> str:
        key = f"{case}|{pass_id}"
        if key not in done:
            path = d / f"{len(done)}.json"
            extra = ["--cases-from", str(d / "reshape_case.py")] if case.startswith("repro/") else []
            assert main(["run", *extra, "--case", case, "--pass", pass_id, "--json", str(path), "-q"]) == 1
            done[key] = str(path)
        return done[key]

    return report


@pytest.fixture
def repro(capsys):
    def run(report: str, finding_id: str, out) -> str:
        """``passcheck repro``; it ran the script here (isolated): returns the script's BUG line."""
        capsys.readouterr()
        assert main(["repro", report, "--finding", finding_id, "--out", str(out)]) == 0
        assert not IMPORTS_PASSCHECK.search((out / "repro.py").read_text())
        return capsys.readouterr().out.split("checked here: exit 1, ", 1)[1]

    return run


def _fixed(
    finding_id: str, report: str, tmp_path, *, call: ToolCall | None = None, same_form: bool = False
) -> subprocess.CompletedProcess:
    """The finding's script written with a planted fix (``call`` for the tool, or ``common`` as both forms) and run."""
    from passcheck.report.json_report import read_report

    cells, _ = read_report(report)
    f = next(x for c in cells for x in c.findings if x.id == finding_id)
    b = form_model(f, f.form)
    c = claim(f)
    other = c.other or f.details.get("other_form")
    a = form_model(f, other) if c.two_forms else None
    if same_form:
        a = b = form_model(f, other)
    feeds, rtol, atol = case_feeds(f, b)
    text, _ = generic.script(f, claim(f, rtol, atol), call or tool_call(f.pass_id, b), a, b, feeds)
    (tmp_path / "fixed.py").write_text(text)
    return _run(tmp_path / "fixed.py")


def test_onnxscript_parity_script_fails_then_passes_on_a_common_pair(reports, repro, tmp_path):
    fid = "count/constant-of-shape-symbolic:gather|onnxscript:optimize|parity|missed-optimization"
    report = reports("count/constant-of-shape-symbolic", "onnxscript:optimize")
    bug = repro(report, fid, tmp_path / "o")  # repro ran it here: this interpreter, -I, no PYTHONPATH
    text = (tmp_path / "o" / "repro.py").read_text()
    assert (
        "onnxscript.optimizer.optimize(model)" in text and "Needs only: onnx, onnxruntime, numpy, onnxscript." in text
    )
    assert bug.startswith("BUG: Concat removed from common (1->0) but not from gather (1->1)")
    md = (tmp_path / "o" / "REPORT.md").read_text()
    assert "pip install onnx onnxruntime numpy onnxscript" in md and "--package onnxscript" in md
    fixed = _fixed(fid, report, tmp_path, same_form=True)
    assert fixed.returncode == 0 and "fixed:" in fixed.stdout, fixed.stdout + fixed.stderr


def test_symbolic_shape_inference_annotation_script_fails_then_passes_with_a_right_tool(reports, repro, tmp_path):
    fid = "shape/static-2-1-output:common|ort:symbolic-shape-infer|annotations|annotation-violated"
    report = reports("shape/static-2-1-output", "ort:symbolic-shape-infer")
    bug = repro(report, fid, tmp_path / "o")
    assert bug.startswith(
        "BUG: the type ort:symbolic-shape-infer gives 's' on common does not hold at run time (binding 0): "
        "shape [0]: axis 0 is 0"
    )
    fixed = _fixed(fid, report, tmp_path, call=ONNX_INFERENCE)  # onnx's inference types 's' right
    assert fixed.returncode == 0 and "fixed: the type of 's' holds" in fixed.stdout, fixed.stdout + fixed.stderr


def test_symbolic_shape_inference_validity_script(reports, repro, tmp_path):
    fid = "shape/static-2-1-output:common|ort:symbolic-shape-infer|validity|invalid-model"
    report = reports("shape/static-2-1-output", "ort:symbolic-shape-infer")
    assert repro(report, fid, tmp_path / "o").startswith(
        "BUG: the onnx checker (full_check=True) rejects the output of ort:symbolic-shape-infer"
    )
    fixed = _fixed(fid, report, tmp_path, call=IDENTITY)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


def test_version_converter_validity_script_fails_then_passes_with_a_right_converter(reports, repro, tmp_path):
    fid = "optional-input/reducesum-axes:explicit|onnx:convert-opset-down|validity|invalid-model"
    report = reports("optional-input/reducesum-axes", "onnx:convert-opset-down")
    bug = repro(report, fid, tmp_path / "o")
    assert (
        "onnx.version_converter.convert_version(model, 12)" in (tmp_path / "o" / "repro.py").read_text()
    )  # the neighbouring boundary, in the script
    assert "Unrecognized attribute: noop_with_empty_axes for operator ReduceSum" in bug
    fixed = _fixed(fid, report, tmp_path, call=IDENTITY)
    assert fixed.returncode == 0 and "fixed: the onnx checker accepts the output" in fixed.stdout, (
        fixed.stdout + fixed.stderr
    )


def test_version_converter_acceptance_script(reports, repro, tmp_path):
    fid = "optional-input/reducesum-axes:empty-name|onnx:convert-opset-down|acceptance|rejected"
    report = reports("optional-input/reducesum-axes", "onnx:convert-opset-down")
    assert repro(report, fid, tmp_path / "o").startswith(
        "BUG: onnx:convert-opset-down fails on the valid model empty-name: RuntimeError"
    )
    fixed = _fixed(fid, report, tmp_path, call=IDENTITY)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


def test_version_converter_numeric_script_fails_then_passes_with_a_right_converter(reports, repro, tmp_path):
    fid = "repro/softmax-axis:common|onnx:convert-opset-down|numeric|wrong-result"
    report = reports("repro/softmax-axis", "onnx:convert-opset-down")
    bug = repro(report, fid, tmp_path / "o")
    assert "FEEDS = [\n    {" in (tmp_path / "o" / "repro.py").read_text()  # the run's feeds, embedded
    assert bug.startswith(
        "BUG: output 'y' (binding 0) of common after onnx:convert-opset-down differs from the unoptimized model"
    ), bug
    fixed = _fixed(fid, report, tmp_path, call=IDENTITY)
    assert fixed.returncode == 0 and "computes what common computes on 2 feed set(s)" in fixed.stdout, (
        fixed.stdout + fixed.stderr
    )


def test_onnx_shape_inference_less_precise_script_fails_then_passes_with_data_propagation(reports, repro, tmp_path):
    fid = "repro/reshape-target:concat|onnx:infer-shapes|parity|less-precise"
    report = reports("repro/reshape-target", "onnx:infer-shapes")
    bug = repro(report, fid, tmp_path / "o")
    assert (
        "infer_shapes(model, check_type=False, strict_mode=False, data_prop=False)"
        in (tmp_path / "o" / "repro.py").read_text()
    )
    assert bug.startswith(
        'BUG: graph output \'y\' after onnx:infer-shapes: ["unk__0", "unk__1"] in concat is less precise '
        "than [2, 12] in common"
    )
    data_prop = ToolCall(
        "def apply(model):\n    return onnx.shape_inference.infer_shapes(model, data_prop=True)\n",
        "infer_shapes(data_prop=True)",
    )
    fixed = _fixed(
        fid, report, tmp_path, call=data_prop
    )  # data propagation types the Concat target: as precise on both forms
    assert fixed.returncode == 0 and "fixed: concat's type of 'y' is as precise as common's" in fixed.stdout, (
        fixed.stdout + fixed.stderr
    )


def test_numeric_script_catches_a_planted_wrong_result(tmp_path):
    """The numeric claim compares values, not only runs: a tool that negates the output is caught."""
    from onnx import helper

    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", 1, [2, 3])],
        [helper.make_tensor_value_info("y", 1, [2, 3])],
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    negate = ToolCall(
        """def apply(model):
    out = onnx.ModelProto()
    out.CopyFrom(model)
    out.graph.node.append(helper.make_node("Neg", ["y0"], ["y"]))
    out.graph.node[0].output[0] = "y0"
    return out
""",
        "a planted wrong rewrite",
    )
    f = Finding("wrong-result", "numeric", "planted/relu", "common", "planted:negate", "m")
    import numpy as np

    feeds = [{"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2}]
    for call, code in ((negate, 1), (IDENTITY, 0)):
        text, _ = generic.script(f, claim(f), call, None, model, feeds)
        (tmp_path / "s.py").write_text(text)
        r = _run(tmp_path / "s.py")
        assert r.returncode == code, r.stdout + r.stderr
    assert "fixed" in r.stdout


def test_less_precise_script_fails_then_passes_on_a_common_pair(reports, repro, tmp_path):
    # onnx propagates no data through an Identity (the pass makes the gap: both forms declare the same output;
    # a gap the forms declare and a pass keeps is no finding, tests/oracles/test_parity_blame.py)
    fid = "data-prop/reshape-flatten:identity|onnx:infer-shapes-data-prop|parity|less-precise"
    report = reports("data-prop/reshape-flatten", "onnx:infer-shapes-data-prop")
    assert repro(report, fid, tmp_path / "o").startswith("BUG: graph output 'y' after onnx:infer-shapes-data-prop: ")
    fixed = _fixed(fid, report, tmp_path, same_form=True)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr


def test_less_precise_script_passes_when_the_tool_keeps_what_each_model_declares(reports, tmp_path):
    """The oracle's rule, in the script too: two models that declare their output ``y`` (``[N, 24]`` at run time) as
    ``["N", 24]`` and as ``[?, ?]``, given to a tool that keeps every declared type (IDENTITY), show the models' own
    gap, not the tool's (exit 0; docs/found.md row 25)."""
    from passcheck.report.json_report import read_report

    fid = "data-prop/reshape-flatten:identity|onnx:infer-shapes-data-prop|parity|less-precise"
    cells, _ = read_report(reports("data-prop/reshape-flatten", "onnx:infer-shapes-data-prop"))
    f = next(x for c in cells for x in c.findings if x.id == fid)
    c = claim(f)
    b = form_model(f, c.other or f.details.get("other_form"))
    assert not any(d.dim_value or d.dim_param for d in b.graph.output[0].type.tensor_type.shape.dim)
    a = onnx.ModelProto()
    a.CopyFrom(b)
    dims = a.graph.output[0].type.tensor_type.shape.dim
    dims[0].dim_param, dims[1].dim_value = "N", 24  # what holds at run time, declared by this model alone
    feeds, rtol, atol = case_feeds(f, b)
    text, _ = generic.script(f, claim(f, rtol, atol), IDENTITY, a, b, feeds)
    (tmp_path / "s.py").write_text(text)
    r = _run(tmp_path / "s.py")
    assert r.returncode == 0 and "keeps what each model declares" in r.stdout, r.stdout + r.stderr


#: A planted fix for a missed folding: every Shape node replaced by a Constant of [3, 4].
FOLDS_SHAPE = ToolCall(
    """def apply(model):
    out = onnx.ModelProto()
    out.CopyFrom(model)
    for n in out.graph.node:
        if n.op_type == "Shape":
            n.CopyFrom(helper.make_node("Constant", [], list(n.output), value=numpy_helper.from_array(
                np.array([3, 4], np.int64))))
    return out
""",
    "a planted pass that folds Shape",
)


def test_folding_script_fails_on_an_unfolded_sliced_shape_then_passes_once_folded(reports, repro, tmp_path):
    # onnxruntime#34140: Shape(x, start, end) selecting static dims of a symbolic input is not folded at basic
    fid = "shape/dynamic-1-3-output:start-end|ort:basic|folding|missed-optimization"
    report = reports("shape/dynamic-1-3-output", "ort:basic")
    bug = repro(report, fid, tmp_path / "o")
    assert bug.startswith(
        "BUG: ort:basic left Shape node 'shape' unfolded on start-end: it reads only constants and input shapes and "
        "yields [3, 4] on all 2 feed set(s)"
    ), bug
    fixed = _fixed(fid, report, tmp_path, call=FOLDS_SHAPE)
    assert fixed.returncode == 0 and "fixed: no node" in fixed.stdout, fixed.stdout + fixed.stderr
    # a value that reads the input's data is no missed folding: the script refuses its premise (exit 2)
    reads = ToolCall(
        FOLDS_SHAPE.source.replace('n.op_type == "Shape"', "False").replace(
            "return out",
            'out.graph.node[0].op_type = "Identity"\n    del out.graph.node[0].attribute[:]\n    return out',
        ),
        "a planted pass that reads data",
    )
    premise = _fixed(fid, report, tmp_path, call=reads)
    assert premise.returncode == 2 and "premise fails" in premise.stderr, premise.stdout + premise.stderr


def test_validity_disagreement_on_a_form_is_scripted_and_passes_once_the_checker_agrees(reports, repro, tmp_path):
    """The checker rejects the form and accepts 'common'; with 'common' as both forms (a planted fix) the two
    verdicts agree and the script exits 0."""
    report = reports("graph-interface/output-without-shape", "ort:disabled")
    fid = "graph-interface/output-without-shape:no-shape|input|validity|validity-disagreement"
    bug = repro(report, fid, tmp_path / "o")
    assert "BUG: the onnx checker (full_check=True) rejects no-shape but accepts common" in bug, bug
    assert {"common.onnx", "uncommon.onnx"} <= {p.name for p in (tmp_path / "o").iterdir()}
    fixed = _fixed(fid, report, tmp_path, same_form=True)
    assert fixed.returncode == 0 and "fixed: the onnx checker accepts" in fixed.stdout, fixed.stdout + fixed.stderr


def test_every_script_applies_its_tool_by_hand_with_apply(reports, repro, tmp_path):
    """``repro.py --apply IN OUT`` works in a script whose check runs no child (it used to call an undefined
    ``apply_here``)."""
    report = reports("repro/reshape-target", "onnx:infer-shapes")
    from passcheck.report.json_report import read_report

    cells, _ = read_report(report)
    fid = next(f.id for c in cells for f in c.findings if not f.expected and f.pass_id == "onnx:infer-shapes")
    repro(report, fid, tmp_path / "o")
    text = (tmp_path / "o" / "repro.py").read_text()
    assert "def apply_in_child" not in text  # the check itself starts no child
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run(
        [sys.executable, "-I", "repro.py", "--apply", next((tmp_path / "o").glob("*.onnx")).name, "o.onnx"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path / "o",
        env=env,
    )
    assert r.returncode == 0 and (tmp_path / "o" / "o.onnx").is_file(), r.stdout + r.stderr


def test_a_script_that_does_not_show_the_bug_here_is_not_kept(tmp_path):
    from passcheck.errors import PasscheckError

    (tmp_path / "repro.py").write_text("import sys\nprint('fixed')\nsys.exit(0)\n")
    with pytest.raises(PasscheckError, match=r"does not reproduce the finding here \(exit 0"):
        verify(tmp_path / "repro.py")
    (tmp_path / "repro.py").write_text("import sys\nprint('BUG: x')\nsys.exit(1)\n")
    assert verify(tmp_path / "repro.py") == "BUG: x"
    (tmp_path / "repro.py").write_text(
        "import sys\nimport passcheck\nprint('BUG: x')\nsys.exit(1)\n"
    )  # passcheck cannot be imported there
    with pytest.raises(PasscheckError, match=r"exit 1: ModuleNotFoundError: import of passcheck halted"):
        verify(tmp_path / "repro.py")


def _relu_model():
    from onnx import helper

    g = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", 1, [2, 3])],
        [helper.make_tensor_value_info("y", 1, [2, 3])],
    )
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def test_input_mutated_script_catches_a_planted_in_place_edit(tmp_path):
    edits = ToolCall(
        """def apply(model):
    out = onnx.ModelProto()
    out.CopyFrom(model)
    model.graph.node[0].name = "renamed"  # planted: the input is edited too
    return out
""",
        "a planted pass that edits its input",
    )
    f = Finding("input-mutated", "pass-contract", "planted/relu", "common", "planted:edit", "m")
    for call, code in ((edits, 1), (IDENTITY, 0)):
        text, _ = generic.script(f, claim(f), call, None, _relu_model())
        (tmp_path / "s.py").write_text(text)
        r = _run(tmp_path / "s.py")
        assert r.returncode == code, r.stdout + r.stderr
        if code:
            assert "BUG: planted:edit changed the model it was given (graph, graph.node)" in r.stdout


def test_input_mutated_script_ignores_a_named_constant_tensor_and_catches_a_changed_value(tmp_path):
    """As the pass-contract oracle: naming a Constant's value tensor in the caller's model is no mutation."""
    model = onnx.parser.parse_model(
        '<ir_version: 8, opset_import: ["" : 17]> g (float[2] x) => (float[2] y) '
        "{ k = Constant <value = float {0.5}> () y = Mul (x, k) }"
    )
    f = Finding("input-mutated", "pass-contract", "planted/mul", "common", "planted:edit", "m")
    for edit, code in (("t.name = 'k'", 0), ("t.float_data[0] = 2.0", 1)):
        call = ToolCall(
            f"""def apply(model):
    out = onnx.ModelProto()
    out.CopyFrom(model)
    t = model.graph.node[0].attribute[0].t
    {edit}
    return out
""",
            "a planted pass that touches the Constant of its input",
        )
        text, _ = generic.script(f, claim(f), call, None, model)
        (tmp_path / "s.py").write_text(text)
        r = _run(tmp_path / "s.py")
        assert r.returncode == code, (edit, r.stdout + r.stderr)


@pytest.mark.parametrize(
    ("oracle", "kind", "pass_id", "details", "why"),
    [
        ("folding", "missed-optimization", "onnxscript:optimize", {}, "no standalone check states the folding oracle"),
        (
            "annotations",
            "annotation-violated",
            "onnx:infer-shapes",
            {"value": "N", "role": "assertion", "rule": "symbol"},
            "binding of symbols",
        ),
        (
            "annotations",
            "annotation-violated",
            "ort:basic",
            {"value": "x", "role": "precondition", "rule": "rank"},
            "binding of symbols",
        ),
        ("acceptance", "rejected", "onnxscript:optimize", {"status": "timeout"}, "time or memory limit"),
        ("validity", "validity-disagreement", "input", {"form": "common"}, "on a form itself (pass 'input')"),
        ("validity", "invalid-model", "cmd:onnxsim", {}, "no standalone script calls pass 'cmd:onnxsim'"),
    ],
)
def test_kinds_without_a_faithful_script_are_refused(oracle, kind, pass_id, details, why):
    from passcheck.repro.plan import refusal

    form = details.pop("form", "f")  # a disagreement on 'common' has no other form to compare with
    assert why in refusal(Finding(kind, oracle, "c", form, pass_id, "m", details=details))


def test_the_less_precise_script_counts_a_fresh_unknown_dim_as_the_oracle_does():
    """A graph output typed ``["unk__1", 4, 5]`` beside ``["N", 4, 5]``: the parity oracle counts the tool's fresh
    ``unk__1`` (used once, named by no input) as an unnamed dim, so less precise; the script's helpers, exec'd as the
    script holds them, must judge alike (they counted it as a named dim, and triage called a real finding of
    onnx-ir:shape-inference 'not reproduced')."""
    from passcheck.repro.claims import _PARITY_PRECISION

    helpers: dict = {}
    exec(generic._oracle_source()["precision"], helpers)  # noqa: S102 - the script's own helper text

    def model(dims):
        return onnx.parser.parse_model(
            f'<ir_version: 8, opset_import: ["" : 17]>\ng (float[N, 4, 5] x) => (float[{dims}] y) {{ y = Relu (x) }}'
        )

    given = model("N, 4, 5")  # the pass input: its output's shape cleared, as the forms declare none here
    given.graph.output[0].type.tensor_type.ClearField("shape")
    a, b = model("N, 4, 5"), model("unk__1, 4, 5")  # the pass outputs of the two forms
    pa = helpers["precision"](a.graph.output[0].type, helpers["fresh_dim_params"](given, a))
    pb = helpers["precision"](b.graph.output[0].type, helpers["fresh_dim_params"](given, b))
    assert helpers["less_precise"](pb, pa)
    assert "fresh_dim_params(b, out_b)" in _PARITY_PRECISION


@pytest.mark.parametrize("pass_id", ["onnx:convert-opset-up", "onnxscript:convert-opset-up"])
def test_a_per_model_boundary_converter_is_scripted_not_refused(pass_id):
    """The converters to the neighbouring opset boundary are spelled per form (their target depends on it):
    onnxscript's was refused as "no standalone script calls pass" (its id kept the family prefix)."""
    from passcheck.repro.plan import refusal
    from passcheck.repro.tools import tool_call

    assert refusal(Finding("invalid-model", "validity", "c", "f", pass_id, "m")) is None
    model = onnx.parser.parse_model("""<ir_version: 9, opset_import: ["" : 19]>
g (float[1,1,3,3] x, float[1,2,2,2] grid) => (float[1,1,2,2] y) { y = GridSample <mode = "bilinear"> (x, grid) }""")
    assert "20" in tool_call(pass_id, model).doc


def test_numeric_script_feeds_an_overridable_default_as_the_run_did(tmp_path):
    """A finding on a fed overridable default (IR.md §Graphs: an initializer named like a graph input is that input's
    default; ``vary:default-fed`` feeds another value) reproduces only when the script feeds it too: a tool that
    reads the default as a constant (drops the graph input) is caught, and the tool that keeps it passes."""
    import numpy as np
    from onnx import helper, numpy_helper

    g = helper.make_graph(
        [helper.make_node("Mul", ["x", "k"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", 1, [2, 3]), helper.make_tensor_value_info("k", 1, [])],
        [helper.make_tensor_value_info("y", 1, [2, 3])],
        [numpy_helper.from_array(np.array(2.0, np.float32), "k")],
    )
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    fold_default = ToolCall(
        """def apply(model):
    out = onnx.ModelProto()
    out.CopyFrom(model)
    keep = [v for v in out.graph.input if v.name != "k"]
    del out.graph.input[:]
    out.graph.input.extend(keep)
    return out
""",
        "a planted pass reading the default as a constant",
    )
    f = Finding("wrong-result", "numeric", "planted/mul-default", "vary:default-fed@k", "planted:fold", "m")
    feeds = [{"x": np.arange(6, dtype=np.float32).reshape(2, 3) - 2, "k": np.array(3.0, np.float32)}]
    for call, code in ((fold_default, 1), (IDENTITY, 0)):
        text, _ = generic.script(f, claim(f), call, None, model, feeds)
        (tmp_path / "s.py").write_text(text)
        r = _run(tmp_path / "s.py")
        assert r.returncode == code, r.stdout + r.stderr
