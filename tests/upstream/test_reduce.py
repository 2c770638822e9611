"""``passcheck reduce``: delta debugging over nodes keeps the finding, on real onnxruntime sessions."""

from __future__ import annotations

import json
import subprocess
import sys

import onnx
import pytest
from onnx import helper

from passcheck.cli import main
from passcheck.reduce.ddmin import ddmin


def test_ddmin_finds_a_one_minimal_subset():
    tested = []

    def holds(xs):
        tested.append(xs)
        return {3, 7} <= set(xs)

    assert ddmin(list(range(20)), holds, deadline=float("inf")) == ([3, 7], True)


def test_ddmin_stops_at_the_deadline_with_what_it_has():
    assert ddmin(list(range(8)), lambda xs: True, deadline=float("-inf")) == (list(range(8)), False)


@pytest.fixture(scope="module")
def conv_bn_report(tmp_path_factory):
    from passcheck.cases._registry import load_builtin

    d = tmp_path_factory.mktemp("reduce")
    case = load_builtin().get("optional-input/conv-bn")
    for form, stem in (("common", "a"), ("empty-name", "b")):
        m = case.build(form)
        relu = helper.make_node("Relu", ["y"], ["z"], name="relu")  # a node the finding does not need
        m.graph.node.append(relu)
        m.graph.output[0].CopyFrom(helper.make_tensor_value_info("z", 1, ["N", 4, 8, 8]))
        onnx.save(m, str(d / f"{stem}.onnx"))
    assert (
        main(
            ["compare", str(d / "a.onnx"), str(d / "b.onnx"), "--pass", "ort:basic", "--json", str(d / "r.json"), "-q"]
        )
        == 1
    )
    return d


def test_reduce_compare_pair_to_conv_bn_and_case_module_reproduces(conv_bn_report, capsys):
    d = conv_bn_report
    assert main(["reduce", str(d / "r.json"), "--out", str(d / "out")]) == 0
    assert "3 → 2 nodes (Conv, BatchNormalization); 1-minimal" in capsys.readouterr().out
    for f in ("common.onnx", "uncommon.onnx"):
        m = onnx.load(str(d / "out" / f))
        onnx.checker.check_model(m, full_check=True)
        assert [n.op_type for n in m.graph.node] == ["Conv", "BatchNormalization"]
    assert json.loads((d / "out" / "reduce-state.json").read_text())["finished"] is True
    again = d / "again.json"
    assert (
        main(
            [
                "run",
                "--cases-from",
                str(d / "out" / "reduced_a_b_ort_basic_parity_missed_optimization.py"),
                "--case",
                "reduced/a-b-ort-basic-parity-missed-optimization",
                "--pass",
                "ort:basic",
                "--json",
                str(again),
                "-q",
            ]
        )
        == 1
    )
    assert "ort:basic removed BatchNormalization 1→0 in 'common' but 1→1 in 'b'" in capsys.readouterr().out
    # a fresh process finds the reduced case through the --cases-from the finding records
    run = subprocess.run(
        [sys.executable, "-m", "passcheck", "attribute", str(again)], capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0 and "attributed to: ConvBNFusion" in run.stdout, run.stdout + run.stderr


def test_resume_starts_from_the_recorded_nodes_and_refuses_another_findings_state(conv_bn_report, capsys):
    d, out = conv_bn_report, conv_bn_report / "resumed"
    out.mkdir()
    fid = "model/a:b|ort:basic|parity|missed-optimization"
    (out / "reduce-state.json").write_text(json.dumps({"finding": fid, "keep": ["c", "y"], "finished": False}))
    assert main(["reduce", str(d / "r.json"), "--out", str(out), "--resume"]) == 0
    assert "3 → 2 nodes" in capsys.readouterr().out
    (out / "reduce-state.json").write_text(json.dumps({"finding": "other", "keep": [], "finished": False}))
    assert main(["reduce", str(d / "r.json"), "--out", str(out), "--resume"]) == 2
    assert "records finding 'other'" in capsys.readouterr().err


@pytest.mark.slow
def test_resnet50_mutant_reduces_to_at_most_three_nodes(resnet_report, tmp_path, capsys):
    assert (
        main(
            [
                "reduce",
                str(resnet_report[0]),
                "--finding",
                resnet_report[1],
                "--out",
                str(tmp_path / "out"),
                "--budget",
                "900",  # a bound, not a target: 50 s alone, past 120 s at load ~18
            ]
        )
        == 0
    )
    said = capsys.readouterr().out
    assert "1-minimal; rewrite sites 53 → 1 (empty-optional-input@" in said, said
    m = onnx.load(str(tmp_path / "out" / "uncommon.onnx"))
    assert len(m.graph.node) <= 3 and {"Conv", "BatchNormalization"} <= {n.op_type for n in m.graph.node}
    assert (
        main(
            [
                "run",
                "--cases-from",
                str(
                    tmp_path
                    / "out"
                    / "reduced_light_resnet50_empty_optional_input_ort_basic_parity_missed_optimization.py"
                ),
                "--case",
                "reduced/light_resnet50-empty-optional-input-ort-basic-parity-missed-optimization",
                "--pass",
                "ort:basic",
                "--json",
                str(tmp_path / "again.json"),
                "-q",
            ]
        )
        == 1
    )
    assert (
        main(
            [
                "attribute",
                str(tmp_path / "again.json"),
                "--finding",
                "reduced/light_resnet50-empty-optional-input-ort-basic-parity-missed-optimization:empty-optional-input|ort:basic|parity|missed-optimization",
            ]
        )
        == 0
    )
    assert "attributed to: ConvBNFusion" in capsys.readouterr().out


def test_reduce_runs_check_with_mutations_itself(tmp_path, capsys):
    from passcheck.cases._registry import load_builtin

    onnx.save(load_builtin().get("optional-input/conv-bn").build("common"), str(tmp_path / "m.onnx"))
    out = tmp_path / "out"
    assert (
        main(
            [
                "reduce",
                "--check",
                str(tmp_path / "m.onnx"),
                "--form",
                "empty-optional-input",
                "--pass",
                "ort:basic",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert "2 → 2 nodes (Conv, BatchNormalization); 1-minimal" in capsys.readouterr().out
    assert (out / "report.json").is_file() and (
        out / "reduced_m_empty_optional_input_ort_basic_parity_missed_optimization.py"
    ).is_file()


def test_reduce_refuses_a_pass_option_with_a_report(conv_bn_report, tmp_path, capsys):
    assert main(["reduce", str(conv_bn_report / "r.json"), "--pass", "ort:basic", "--out", str(tmp_path / "o")]) == 2
    assert "--pass and --form go with --compare or --check" in capsys.readouterr().err


def _conv_bn_chain(path, n=3):
    """x → (Conv → BatchNormalization) × n, every Conv without a bias: ``empty-optional-input`` has n sites."""
    import numpy as np
    from onnx import numpy_helper

    rng = np.random.default_rng(0)
    nodes, inits, cur = [], [], "x"
    for i in range(n):
        inits.append(numpy_helper.from_array(rng.standard_normal((4, 4, 3, 3)).astype(np.float32), f"w{i}"))
        for p, v in (("s", 1.5), ("b", 0.1), ("m", 0.2), ("v", 0.9)):
            inits.append(
                numpy_helper.from_array(np.full(4, v, np.float32) + rng.random(4).astype(np.float32), f"{p}{i}")
            )
        nodes += [
            helper.make_node(
                "Conv", [cur, f"w{i}"], [f"c{i}"], name=f"conv{i}", pads=[1, 1, 1, 1], kernel_shape=[3, 3]
            ),
            helper.make_node(
                "BatchNormalization", [f"c{i}", f"s{i}", f"b{i}", f"m{i}", f"v{i}"], [f"y{i}"], name=f"bn{i}"
            ),
        ]
        cur = f"y{i}"
    g = helper.make_graph(
        nodes,
        "chain",
        [helper.make_tensor_value_info("x", 1, [1, 4, 8, 8])],
        [helper.make_tensor_value_info(cur, 1, [1, 4, 8, 8])],
        initializer=inits,
    )
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), str(path))


def test_mutation_finding_narrows_rewrite_sites_then_nodes_then_shapes_then_initializer_values(tmp_path, capsys):
    _conv_bn_chain(tmp_path / "chain.onnx")
    out = tmp_path / "out"
    fid = "model/chain:empty-optional-input|ort:basic|parity|missed-optimization"
    assert (
        main(
            [
                "reduce",
                "--check",
                str(tmp_path / "chain.onnx"),
                "--form",
                "empty-optional-input",
                "--pass",
                "ort:basic",
                "--finding",
                fid,
                "--out",
                str(out),
            ]
        )
        == 0
    )
    said = capsys.readouterr().out
    assert (
        "6 → 2 nodes (Conv, BatchNormalization); 1-minimal; rewrite sites 3 → 1 (empty-optional-input@conv0); "
        "axes of size 8, 4 cut to 1; initializers as fills: w0=zeros"
    ) in said, said  # 3 is kernel_shape: kept
    a, b = onnx.load(str(out / "common.onnx")), onnx.load(str(out / "uncommon.onnx"))
    assert [list(n.input) for n in b.graph.node if n.op_type == "Conv"] == [["x", "w0", ""]]
    assert [list(n.input) for n in a.graph.node if n.op_type == "Conv"] == [["x", "w0"]]
    from onnx import numpy_helper

    w = {t.name: numpy_helper.to_array(t) for t in b.graph.initializer}
    assert w["w0"].shape == (1, 1, 3, 3) and not w["w0"].any() and w["s0"].shape == (1,) and w["s0"].all()
    assert [d.dim_value for d in b.graph.input[0].type.tensor_type.shape.dim] == [1, 1, 1, 1]
    state = json.loads((out / "reduce-state.json").read_text())
    assert (
        state["form"] == "empty-optional-input@conv0"
        and state["shrunk"] == [8, 4]
        and state["simplified"] == {"w0": "zeros"}
    )
    # resumed from a state cut short after the sites step began: the recorded spelling goes on narrowing
    state.update(
        form="empty-optional-input@conv0+empty-optional-input@conv2",
        keep=[f"{p}{i}" for i in range(3) for p in "cy"],
        finished=False,
    )
    (out / "reduce-state.json").write_text(json.dumps(state))
    assert main(["reduce", str(out / "report.json"), "--finding", fid, "--out", str(out), "--resume"]) == 0
    assert (
        "6 → 2 nodes (Conv, BatchNormalization); 1-minimal; rewrite sites 3 → 1 (empty-optional-input@conv0); axes"
        in capsys.readouterr().out
    )


def test_sites_step_keeps_the_site_the_finding_needs():
    """Planted: only a form holding site 'conv1' shows the 'finding' (ddmin must not drop it)."""
    import tempfile

    from passcheck.reduce.sites import fewest_sites

    with tempfile.TemporaryDirectory() as d:
        _conv_bn_chain(f"{d}/c.onnx", n=4)
        m = onnx.load(f"{d}/c.onnx")
    seen = []

    def holds(form):
        seen.append(form)
        return "@conv1" in form

    assert fewest_sites(m, "empty-optional-input", holds, float("inf")) == ("empty-optional-input@conv1", True)
    assert (
        fewest_sites(m, "empty-optional-input@conv2", holds, float("inf"))[0] == "empty-optional-input@conv2"
    )  # one site: left
    several = (
        "empty-optional-input@conv0+empty-optional-input@conv1+empty-optional-input@conv3"  # e.g. resumed half-way
    )
    narrower = []
    assert fewest_sites(m, several, holds, float("inf"), narrower.append) == ("empty-optional-input@conv1", True)
    assert narrower[-1] == "empty-optional-input@conv1"


def test_initializer_values_that_matter_are_kept():
    """Planted: the 'finding' needs w's own values (no fill of w holds), or w non-zero."""
    import numpy as np

    from passcheck.reduce.initializers import simplify

    arrays = {"w": np.arange(6, dtype=np.float32), "s": np.arange(4, dtype=np.float32)}
    got = simplify(arrays, lambda v: "w" not in v, float("inf"))
    assert set(got) == {"s"} and not got["s"].any()
    got = simplify(arrays, lambda v: "w" not in v or bool(v["w"].any()), float("inf"))
    assert got["w"].all() and got["s"].all()  # all ones at once
    assert simplify(arrays, lambda v: not v, float("inf")) == {}


@pytest.fixture(scope="module")
def onnxscript_report(tmp_path_factory):
    pytest.importorskip("onnxscript")
    path = tmp_path_factory.mktemp("os") / "r.json"
    assert (
        main(
            [
                "run",
                "--case",
                "count/constant-of-shape-symbolic",
                "--pass",
                "onnxscript:optimize",
                "--json",
                str(path),
                "-q",
            ]
        )
        == 1
    )
    return path


def test_onnxscript_parity_finding_is_reduced_through_the_engine(onnxscript_report, tmp_path, capsys):
    fid = "count/constant-of-shape-symbolic:gather|onnxscript:optimize|parity|missed-optimization"
    out = tmp_path / "out"
    assert main(["reduce", str(onnxscript_report), "--finding", fid, "--out", str(out)]) == 0
    said = capsys.readouterr()
    assert "EngineCheck predicate" in said.err
    assert "6 → 4 nodes (Shape, Gather, Unsqueeze, Concat); 1-minimal" in said.out
    assert [n.op_type for n in onnx.load(str(out / "common.onnx")).graph.node] == ["Concat"]
    again = tmp_path / "again.json"
    assert (
        main(
            [
                "run",
                "--cases-from",
                str(
                    out / "reduced_constant_of_shape_symbolic_gather_onnxscript_optimize_parity_missed_optimization.py"
                ),
                "--case",
                "reduced/constant-of-shape-symbolic-gather-onnxscript-optimize-parity-missed-optimization",
                "--pass",
                "onnxscript:optimize",
                "--json",
                str(again),
                "-q",
            ]
        )
        == 1
    )
    assert "onnxscript:optimize removed Concat 1→0 in 'common' but 1→1 in 'gather'" in capsys.readouterr().out


def test_one_form_folding_finding_reduces_its_form_alone(onnxscript_report, tmp_path, capsys):
    fid = "count/constant-of-shape-symbolic:gather|onnxscript:optimize|folding|missed-optimization"
    out = tmp_path / "out"
    assert main(["reduce", str(onnxscript_report), "--finding", fid, "--out", str(out)]) == 0
    assert "6 → 2 nodes (Shape, Gather); 1-minimal" in capsys.readouterr().out
    assert not (out / "common.onnx").exists() and (out / "uncommon.onnx").is_file()
    # registers: a case needs an uncommon form besides 'common' (in a fresh interpreter: a worker that ran other
    # reduce tests holds other reduced cases)
    probe = (
        "import sys; from passcheck.user_modules import load_file; from passcheck.cases._registry import load_builtin;"
        "load_file(sys.argv[1]);"
        "case = load_builtin().get('reduced/constant-of-shape-symbolic-gather-onnxscript-optimize-folding-missed-"
        "optimization');"
        "print(','.join(n.op_type for n in case.build('gather').graph.node))"
    )
    built = subprocess.run(
        [sys.executable, "-c", probe, str(next(out.glob("reduced_*.py")))], capture_output=True, text=True, timeout=300
    )
    assert built.returncode == 0, built.stderr
    assert built.stdout.split() == ["Shape,Gather"]


def test_two_findings_of_one_cell_reduce_to_two_modules_and_case_ids_in_one_out(onnxscript_report, tmp_path, capsys):
    """The parity and the folding finding of one case, form and pass: a second reduction into the first's
    --out is refused (its forms and state are not overwritten), into its own --out the modules' names and
    case ids differ, and both register their own case in one interpreter."""
    for oracle in ("parity", "folding"):
        fid = f"count/constant-of-shape-symbolic:gather|onnxscript:optimize|{oracle}|missed-optimization"
        assert main(["reduce", str(onnxscript_report), "--finding", fid, "--out", str(tmp_path / "parity")]) == (
            0 if oracle == "parity" else 2
        )
        assert main(["reduce", str(onnxscript_report), "--finding", fid, "--out", str(tmp_path / oracle)]) == (
            2 if oracle == "parity" else 0
        )
    assert "holds a reduction already" in capsys.readouterr().err
    stem = "reduced_constant_of_shape_symbolic_gather_onnxscript_optimize"
    modules = sorted(tmp_path.glob("*/reduced_*.py"))
    assert [p.name for p in modules] == [
        f"{stem}_folding_missed_optimization.py",
        f"{stem}_parity_missed_optimization.py",
    ]
    probe = (
        "import sys; from passcheck.user_modules import load_file; from passcheck.cases._registry import load_builtin;"
        "[load_file(p) for p in sys.argv[1:]]; reg = load_builtin();"
        "ids = [c.id for c in reg if c.id.startswith('reduced/')];"
        "print(*[i + '=' + ','.join(n.op_type for n in reg.get(i).build('gather').graph.node) for i in ids])"
    )
    built = subprocess.run(
        [sys.executable, "-c", probe, *map(str, modules)], capture_output=True, text=True, timeout=300
    )
    assert built.returncode == 0, built.stderr
    case = "reduced/constant-of-shape-symbolic-gather-onnxscript-optimize"
    assert built.stdout.split() == [
        f"{case}-folding-missed-optimization=Shape,Gather",
        f"{case}-parity-missed-optimization=Shape,Gather,Unsqueeze,Concat",
    ]


def test_a_signature_the_pair_does_not_show_is_refused(onnxscript_report, tmp_path, capsys):
    """Planted: the same finding claiming another kept op type is not reproduced, so not reduced."""
    doc = json.loads(onnxscript_report.read_text())
    fid = "count/constant-of-shape-symbolic:gather|onnxscript:optimize|parity|missed-optimization"
    for c in doc["results"]:
        for f in c["findings"]:
            if f["id"] == fid:
                f["details"]["kept_op_types"] = ["Gather"]
    planted = tmp_path / "planted.json"
    planted.write_text(json.dumps(doc))
    assert main(["reduce", str(planted), "--finding", fid, "--out", str(tmp_path / "out")]) == 2
    assert "does not show the finding here" in capsys.readouterr().err


def test_shape_inference_precision_finding_is_reduced(tmp_path, capsys):
    from tests.upstream.test_attribute import _reshape_pair

    _reshape_pair(tmp_path)
    out = tmp_path / "out"
    assert (
        main(
            [
                "reduce",
                "--compare",
                str(tmp_path / "a.onnx"),
                str(tmp_path / "b.onnx"),
                "--pass",
                "onnx:infer-shapes",
                "--finding",
                "model/a:b|onnx:infer-shapes|parity|less-precise",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert "3 → 2 nodes (Concat, Reshape); 1-minimal" in capsys.readouterr().out
    assert [n.op_type for n in onnx.load(str(out / "common.onnx")).graph.node] == ["Reshape"]


def test_a_broken_state_file_is_one_line_and_exit_2(conv_bn_report, tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    (out / "reduce-state.json").write_text("{not json")
    assert main(["reduce", str(conv_bn_report / "r.json"), "--out", str(out), "--resume"]) == 2
    err = capsys.readouterr().err
    assert "not a reduce-state.json" in err and "Traceback" not in err


def test_shapes_step_cuts_one_size_everywhere_and_the_predicate_refuses_what_breaks():
    """Planted: a size that also sits in an attribute (kernel_shape 3) makes a model onnxruntime refuses."""
    import tempfile

    from passcheck.reduce.shapes import shrunk, sizes

    with tempfile.TemporaryDirectory() as d:
        _conv_bn_chain(f"{d}/c.onnx", n=1)
        m = onnx.load(f"{d}/c.onnx")
    assert sizes(m) == [8, 4, 3]
    four = shrunk(m, 4)
    onnx.checker.check_model(four, full_check=True)
    assert [d.dim_value for d in four.graph.output[0].type.tensor_type.shape.dim] == [1, 1, 8, 8]
    import numpy as np
    import onnxruntime as ort

    with pytest.raises(Exception, match="kernel"):  # noqa: B017 - onnxruntime's own error types
        s = ort.InferenceSession(shrunk(m, 3).SerializeToString(), providers=["CPUExecutionProvider"])
        s.run(None, {"x": np.zeros((1, 4, 8, 8), np.float32)})


def test_a_finding_on_the_common_form_against_another_is_judged_with_both_forms(tmp_path):
    """Mutants killed: ``or`` → ``and`` (either one) in ``EngineCheck``'s rebuilt forms, which left a
    finding on ``common`` whose ``other_form`` is another form (parity's ``less-precise`` the other way
    round: the common form typed less precisely) with ``common`` alone, so no pair ever held."""
    from passcheck.engine import Subject, evaluate
    from passcheck.passes import run_in_process
    from passcheck.reduce.predicates import EngineCheck
    from passcheck.runtime import default_bindings
    from tests.upstream.test_attribute import _reshape_pair

    _reshape_pair(tmp_path)  # a: the shape an initializer; b: a Concat of two (typed less precisely)
    precise, computed = onnx.load(str(tmp_path / "a.onnx")), onnx.load(str(tmp_path / "b.onnx"))
    subject = Subject(id="reshape", forms={"common": computed, "u": precise}, bindings=default_bindings(computed))
    cells = evaluate(subject, ["onnx:infer-shapes"], executor=run_in_process)
    (f,) = [x for c in cells for x in c.findings if x.kind == "less-precise"]
    assert (f.form, f.details["other_form"]) == ("common", "u")
    assert EngineCheck(f, run_in_process)(precise, computed)
    assert not EngineCheck(f, run_in_process)(precise, precise)  # both typed alike: nothing to show
    # a two-form finding without its other form is refused before any pass runs (or -> and ran b alone)
    ran = []
    assert not EngineCheck(f, lambda *a, **k: ran.append(a) or run_in_process(*a, **k))(None, computed)
    assert ran == []


def test_an_ort_parity_pair_whose_feeds_cannot_be_made_does_not_hold():
    """Mutant killed: ``return False`` → ``True`` where ``OrtParity`` cannot synthesize feeds (here: an
    input of 2**32 floats, past the feeds' size limit), which let a cut through without comparing its outputs."""
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.reduce.predicates import OrtParity

    def pair(shape):
        x = helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, shape)
        y = helper.make_tensor_value_info("y", onnx.TensorProto.FLOAT, shape)
        a = [helper.make_node("Identity", ["x"], ["i"]), helper.make_node("Relu", ["i"], ["y"])]
        b = [helper.make_node("Relu", ["x"], ["y"])]
        opset = [helper.make_opsetid("", 17)]
        return [helper.make_model(helper.make_graph(n, "g", [x], [y]), opset_imports=opset) for n in (a, b)]

    with IsolatedExecutor() as ex:
        holds = OrtParity("basic", ["Identity"], ex)  # onnxruntime removes a's Identity; b has none
        assert holds(*pair([2, 3]))
        assert not holds(*pair([1 << 16, 1 << 16]))


def test_an_ort_parity_pair_onnxruntime_cannot_load_does_not_hold():
    """Mutant killed: ``except (WorkerDied, Exception)`` → ``(WorkerDied, CosmicRayTestingException)`` in
    ``OrtParity``, which let a session error (Abs on bfloat16: valid for the onnx checker, no onnxruntime CPU
    kernel) end the reduction instead of refusing the cut."""
    from passcheck.passes.isolation import IsolatedExecutor
    from passcheck.reduce.predicates import OrtParity

    bf16 = [helper.make_tensor_value_info(n, onnx.TensorProto.BFLOAT16, [2]) for n in ("x", "y")]
    g = helper.make_graph([helper.make_node("Abs", ["x"], ["y"])], "g", bf16[:1], bf16[1:])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    with IsolatedExecutor() as ex:
        holds = OrtParity("basic", ["Abs"], ex)
        assert holds.checker(m) is None  # the onnx checker accepts it: the session is what fails
        assert holds(m, m) is False
