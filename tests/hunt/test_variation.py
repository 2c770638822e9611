"""Base variation: the hunt also tries neighbours of its bases (one constant value, constant shape, attribute
or float elem_type changed within the operator schemas), each judged on its own against its base.

A planted pass that acts on a pattern without checking the constant it assumes (``planted:half-mul``,
``tests/hunt/planted_variation.py``) is right on every spelling of its base, so only a value variation
finds it; a neighbour that is no valid model is dropped and counted, never a finding.
"""

from __future__ import annotations

import json
import random
import shlex
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_probe
from passcheck.hunt.probe import Setting
from tests._inproc import cli

PLANTED = Path(__file__).with_name("planted_variation.py")


def _hunt(out: Path, *args: str) -> subprocess.CompletedProcess:
    """``passcheck hunt`` in this process (tests/_inproc.py); the saved module's reproduce command runs as printed."""
    argv = ["hunt", "--cases-from", PLANTED, "--case", "vary-test/*"]
    # 60 items: one step in four draws a neighbour (15 of them). Seed 4: with the pair kinds (vary_pairs) among the
    # neighbours, seed 1 first puts a value kind on the common form's 0.5 at item 91; seed 4 at item 11, 35 and 59
    argv += ["--pass", "planted:half-mul", "--budget", "60items", "--seed", "4", "--no-coverage", "--out", out]
    return cli(*argv, "--progress", "none", *args)


def _signatures(out: Path) -> list[dict]:
    return list(json.loads((out / "hunt-state.json").read_text())["signatures"].values())


def _model(nodes, inits, out_shape=(2, 4), opset=17) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, list(out_shape))
    graph = helper.make_graph(nodes, "g", [x], [y], [numpy_helper.from_array(v, k) for k, v in inits.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def test_a_value_bug_is_found_only_through_a_value_variation_and_its_saved_module_builds_the_neighbour(tmp_path):
    r = _hunt(tmp_path / "off", "--no-variation")
    assert r.returncode in (0, 1), r.stderr
    off = _signatures(tmp_path / "off")
    assert not [s for s in off if s["signature"]["kind"] == "wrong-result"], off  # every spelling keeps the 0.5
    state = json.loads((tmp_path / "off" / "hunt-state.json").read_text())
    assert not [i for i in state["items"] if i["form"].startswith("vary:")] and "variation" not in state["scope"]

    # the first signature ends it (at 3e0db54: vary:value-zero@half at item 12 of the 60); the value neighbours
    # pinned, so a rewrite joining the registry (a signature of its own first) does not end it before one is drawn
    r = _hunt(tmp_path / "on", "--stop-after", "1", "--vary-kind", "value-*")
    assert r.returncode == 1, r.stderr
    wrong = [s for s in _signatures(tmp_path / "on") if s["signature"]["kind"] == "wrong-result"]
    assert wrong, _signatures(tmp_path / "on")
    sig = wrong[0]
    assert sig["signature"]["rewrite"] in {"vary:value-nudge", "vary:value-negate", "vary:value-zero", "vary:value-one"}
    assert sig["signature"]["ops"] == ["Mul"] and sig["variation"].endswith("@half")
    assert sig["reproduces"] is True and sig["nodes"] == [1, 1]  # Tanh and Add cut away
    assert "vary:value-" in r.stdout  # the summary's rewrite column names the variation
    # the saved module builds the neighbour: its constant is not the 0.5 the pass assumes
    ns: dict = {}
    exec(compile(Path(sig["case_module"]).read_text(), sig["case_module"], "exec"), ns)  # noqa: S102
    neighbour = ns["build_uncommon"]()
    half = next(t for t in neighbour.graph.initializer if t.name == "half")
    assert not np.allclose(numpy_helper.to_array(half), 0.5)
    # its reproduce command, run as printed, shows the wrong result
    argv = shlex.split(sig["repro"])
    assert argv[:2] == ["passcheck", "run"]
    rep = subprocess.run(  # a subprocess: the exec above registered the saved case in this process
        [sys.executable, "-m", *argv],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert rep.returncode == 1 and "wrong-result" in rep.stdout, rep.stdout + rep.stderr


def test_an_invalid_neighbour_is_dropped_and_counted_never_a_finding():
    from passcheck.passes.isolation import executor_for

    # Gemm's C must broadcast unidirectionally to (M, N): [1, 4] → [1, 1, 4] (shape-leading-one) does not
    w = np.ones((4, 4), np.float32)
    base = _model(
        [helper.make_node("Gemm", ["x", "w", "c"], ["y"], name="gemm")], {"w": w, "c": np.ones((1, 4), np.float32)}
    )
    forms = variation.neighbours(base, random.Random(0))
    assert "vary:shape-leading-one@c" in forms
    with executor_for(None, timeout=60) as ex:
        out = vary_probe.judge(Setting("vary-test/gemm"), base, "vary:shape-leading-one@c", "ort:basic", ex)
        assert out.status == vary_probe.INVALID and not out.findings, out
        assert "does not run" in out.reason or "checker" in out.reason, out.reason
        ok = vary_probe.judge(Setting("vary-test/gemm"), base, "vary:value-zero@c", "ort:basic", ex)
        assert ok.status == "done", ok


def test_neighbours_come_from_the_schemas():
    nodes = [
        helper.make_node("Mul", ["x", "h"], ["m"]),
        helper.make_node("LayerNormalization", ["m", "g", "b"], ["n"], axis=-1, epsilon=1e-5),
        helper.make_node("Transpose", ["n"], ["y"], perm=[1, 0]),
    ]
    inits = {"h": np.array(0.5, np.float32), "g": np.ones(4, np.float32), "b": np.zeros(4, np.float32)}
    base = _model(nodes, inits, out_shape=(4, 2))
    forms = variation.neighbours(base, random.Random(0))
    kinds = {variation.kind(f) for f in forms}
    assert {"vary:value-nudge", "vary:value-zero", "vary:value-one"} <= kinds
    # LayerNormalization's doc states Scale and B broadcast unidirectionally to X; Mul's scalar has one element
    assert {"vary:shape-scalar@g", "vary:shape-leading-one@g"} <= set(forms) and "vary:shape-scalar@h" not in forms
    assert "vary:attr-axis@n1_LayerNormalization=0" in forms  # rank 2: the other axis
    assert "vary:attr-epsilon@n1_LayerNormalization=0.0001" in forms
    assert "vary:attr-perm@n2_Transpose=0,1" in forms
    assert {"vary:elem-float16@graph", "vary:elem-double@graph"} <= set(forms)
    for form in forms:
        built = variation.build(base, form)
        assert built is not None, form
        onnx.checker.check_model(built[0], full_check=True)
    # a vector becomes a rank-0 scalar (not a one-element vector, which leading-one already reaches)
    scalar = variation.build(base, "vary:shape-scalar@g")[0]
    assert [list(t.dims) for t in scalar.graph.initializer if t.name == "g"] == [[]]
    one = variation.build(base, "vary:shape-one-element@g")[0]
    assert [list(t.dims) for t in one.graph.initializer if t.name == "g"] == [[1]]
    # the elem kind moves every float, annotations included
    f16 = variation.build(base, "vary:elem-float16@graph")[0]
    assert {t.data_type for t in f16.graph.initializer} == {TensorProto.FLOAT16}
    assert f16.graph.output[0].type.tensor_type.elem_type == TensorProto.FLOAT16
    # a string attribute moves inside the domain the spec table documents (DepthToSpace mode: DCR or CRD)
    d2s = helper.make_model(
        helper.make_graph(
            [helper.make_node("DepthToSpace", ["x"], ["y"], blocksize=2, mode="DCR")],
            "g",
            [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 2, 2])],
            [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 1, 4, 4])],
        ),
        opset_imports=[helper.make_opsetid("", 17)],
    )
    assert "vary:attr-mode@n0_DepthToSpace=CRD" in variation.neighbours(d2s, random.Random(0))


def test_elem_kinds_are_offered_only_where_every_type_constraint_allows_them():
    # Range-11's T is float, double, int16, int32 or int64 (no float16); Cast's ``to`` moves with the graph
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Cast", ["s"], ["sf"], to=TensorProto.FLOAT),
        helper.make_node("ReduceMax", ["sf"], ["lim"], keepdims=0),
        helper.make_node("Range", ["zero", "lim", "one"], ["r"]),
        helper.make_node("Add", ["x", "r"], ["y"]),
    ]
    inits = {"zero": np.array(0.0, np.float32), "one": np.array(1.0, np.float32)}
    base = _model(nodes, inits)
    forms = variation.neighbours(base, random.Random(0))
    assert "vary:elem-double@graph" in forms and "vary:elem-float16@graph" not in forms


def test_no_value_nudge_past_the_largest_value_of_the_type():
    # an attention mask's fill value is float32's lowest: × 1.01 overflows to -inf (numpy warns) -- another value,
    # not a nudge; the mask's other neighbours and the ordinary scalar's nudge stay
    lowest = np.finfo(np.float32).min
    nodes = [helper.make_node("Add", ["x", "mask"], ["a"]), helper.make_node("Mul", ["a", "h"], ["y"])]
    base = _model(nodes, {"mask": np.array([0.0, lowest, lowest, 0.0], np.float32), "h": np.array(0.5, np.float32)})
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the hunt printed numpy's RuntimeWarning to the user's terminal
        forms = variation.neighbours(base, random.Random(0))
        assert "vary:value-nudge@mask" not in forms and "vary:value-negate@mask" in forms
        assert "vary:value-nudge@h" in forms
        assert variation.build(base, "vary:value-nudge@mask") is None
        nudged = variation.build(base, "vary:value-nudge@h")[0]
    assert [numpy_helper.to_array(t).item() for t in nudged.graph.initializer if t.name == "h"] == [
        pytest.approx(0.505)
    ]


@pytest.mark.parametrize("form", ["vary:value-zero@nowhere", "vary:attr-axis@nonode=0", "vary:bogus@x"])
def test_a_site_not_in_the_model_builds_nothing(form):
    base = _model([helper.make_node("Mul", ["x", "h"], ["y"])], {"h": np.array(0.5, np.float32)})
    assert variation.build(base, form) is None


def test_one_step_in_four_draws_a_neighbour_the_others_a_rewrite_form():
    from passcheck.cases import load_path
    from passcheck.hunt.scheduler import VARIATION_EVERY, Scheduler
    from passcheck.hunt.space import bases
    from tests.hunt.test_units import PLANTED

    load_path(PLANTED)
    s = Scheduler(
        bases(["hunt-test/*"], generated=False), ["planted:negative-axes", "planted:commuted"], seed=5, variations=True
    )
    vary = []
    for step in range(24):
        item = s.next(step)
        s.mark(item)
        vary.append(variation.is_variation(item.form))
    assert VARIATION_EVERY == 4
    assert vary == [step % 4 == 3 for step in range(24)]  # rewrite search keeps three steps in four
