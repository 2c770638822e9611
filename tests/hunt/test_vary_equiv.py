"""Equivalent neighbours judged as pairs (:mod:`passcheck.hunt.vary_equiv`): a pass that folds an Unsqueeze for its
non-negative axes only (``tests/hunt/planted_pairs.py``, right on every model) is found through the ``int-negate``
neighbour's pair judgement as a parity missed-optimization, and through nothing else; a non-equivalent neighbour is
judged alone; a claim of equivalence the gate refuses gives no pair finding.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_equiv, vary_probe
from passcheck.hunt.probe import Setting
from tests._inproc import cli, planted

PLANTED = Path(__file__).with_name("planted_pairs.py")
planted_pairs = planted(PLANTED)  # the planted pass and its base, registered on import
PASS_ID = planted_pairs.PASS_ID


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def _judge(base, form, ex):
    return vary_probe.judge(Setting("vary-test/unsqueeze"), base, form, PASS_ID, ex)


def test_a_fold_missed_on_the_equivalent_spelling_is_the_pairs_parity_finding(ex):
    base = planted_pairs.base()
    found = {}
    for form in variation.neighbours(base, random.Random(0)):
        out = _judge(base, form, ex)
        assert out.status in ("done", vary_probe.INVALID, "not-applicable"), (form, out)
        if out.findings:
            found[form] = out.findings
    assert list(found) == ["vary:int-negate@axes"], found
    (f,) = found["vary:int-negate@axes"]
    assert (f.pass_id, f.oracle, f.kind) == (PASS_ID, "parity", "missed-optimization"), f
    assert f.form == "vary:int-negate@axes" and vary_equiv.is_pair_finding(f)
    assert _judge(base, "vary:int-negate@axes", ex).pair == {"status": "done", "findings": 1}


def test_the_equivalent_spelling_alone_shows_nothing(ex):
    # what the pair adds: the neighbour [-2] alone is left as it is, which is right
    base = planted_pairs.base()
    neighbour = variation.build(base, "vary:int-negate@axes")[0]
    assert numpy_helper.to_array(neighbour.graph.initializer[0]).tolist() == [-2]
    out = vary_probe.judge(Setting("vary-test/unsqueeze"), neighbour, "vary:int-zero@axes", PASS_ID, ex)
    assert out.status == "done" and out.pair is None and not out.findings, out


def test_a_non_equivalent_neighbour_is_judged_alone(ex):
    # axes [-1] is left alone by the pass; its nudge [0] is folded. As a pair the forms would differ in what the
    # pass did; the nudge is another model (the 1 elsewhere), judged alone: the fold is right, nothing to report
    base = planted_pairs.base((-1,))
    out = _judge(base, "vary:int-nudge@axes", ex)
    assert out.status == "done" and out.pair is None and not out.findings, out
    assert vary_equiv.equivalent(base, "vary:int-nudge@axes") is None


def test_a_claim_the_gate_refuses_is_no_finding(ex, monkeypatch):
    # a wrongly claimed equivalence (the nudge computes another output): refused by the gate, judged alone only
    monkeypatch.setattr(vary_equiv, "equivalent", lambda model, form: "claimed")
    out = _judge(planted_pairs.base((-1,)), "vary:int-nudge@axes", ex)
    assert out.status == "done" and out.pair["status"] == "refused" and not out.findings, out


def _model(nodes, inits, x_shape, opset=18) -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [None] * len(x_shape))
    graph = helper.make_graph(nodes, "g", [x], [y], [numpy_helper.from_array(v, k) for k, v in inits.items()])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def test_which_kinds_are_equivalent():
    c = {"c": np.array([0.5, 1.0, 2.0, 3.0], np.float32)}
    add = _model([helper.make_node("Add", ["x", "c"], ["y"])], c, [2, 4])
    assert vary_equiv.equivalent(add, "vary:shape-leading-one@c")  # [1, 4] against [2, 4]: the same broadcast
    flat = _model([helper.make_node("Add", ["x", "c"], ["y"])], c, [4])
    assert vary_equiv.equivalent(flat, "vary:shape-leading-one@c") is None  # [1, 4] against [4]: the output gains a dim
    for form in ("vary:value-negate@c", "vary:shape-scalar@c", "vary:shape-outrank@c", "vary:elem-float16@graph"):
        assert vary_equiv.equivalent(add, form) is None, form
    add.graph.output.append(helper.make_tensor_value_info("c", TensorProto.FLOAT, [4]))
    assert vary_equiv.equivalent(add, "vary:shape-leading-one@c") is None  # c itself an output: [1, 4] is no [4]
    base = planted_pairs.base()
    assert vary_equiv.equivalent(base, "vary:int-negate@axes")
    base.graph.output.append(helper.make_tensor_value_info("axes", TensorProto.INT64, [1]))
    assert vary_equiv.equivalent(base, "vary:int-negate@axes") is None  # [-2] as an output is no [1]
    base = planted_pairs.base()
    assert vary_equiv.equivalent(base, "vary:int-zero@axes") is None
    assert vary_equiv.equivalent(base, "vary:attr-axis@un=0") is None


def test_the_hunt_reports_and_saves_the_pair_finding(tmp_path):
    out = tmp_path / "h"
    argv = ["hunt", "--cases-from", PLANTED, "--case", "vary-test/unsqueeze"]  # in this process (tests/_inproc.py)
    argv += ["--pass", PASS_ID, "--vary-kind", "int-*", "--budget", "12items", "--seed", "1", "--no-coverage"]
    # the neighbours alone: rewrites of them (vary:int-negate>axes-input-positive,
    # vary:int-zero>initializer-to-constant) show the same planted pass by other routes
    argv += ["--no-compose"]
    r = cli(*argv, "--out", out, "--progress", "none")
    assert r.returncode == 1, r.stdout + r.stderr
    state = json.loads((out / "hunt-state.json").read_text())
    (sig,) = state["signatures"].values()
    assert sig["signature"]["rewrite"] == "vary:int-negate" and sig["signature"]["oracle"] == "parity", sig
    assert sig["judged"] == "pair" and sig["reproduces"] is True, sig
    paired = [i for i in state["items"] if i["form"] == "vary:int-negate@axes"]
    assert paired and all(i["pair"]["status"] == "done" for i in paired), paired
    assert all("pair" not in i for i in state["items"] if i["form"] != "vary:int-negate@axes")
    assert f"{len(paired)} also judged as pairs ({len(paired)} done)" in r.stdout + r.stderr, r.stderr
    # the saved case holds both forms: the base (common) and the neighbour
    ns: dict = {}
    exec(compile(Path(sig["case_module"]).read_text(), sig["case_module"], "exec"), ns)  # noqa: S102
    common, uncommon = ns["build_common"](), ns["build_uncommon"]()
    axes = [numpy_helper.to_array(t).tolist() for m in (common, uncommon) for t in m.graph.initializer]
    assert axes == [[1], [-2]], axes


def _symbolic_slice() -> onnx.ModelProto:
    """``y = Slice(x, [0], Unsqueeze(Gather(Shape(x), 1), [0]), axes [2])``, x ``[N, 4, 6]``, y ``[N, 4, 4]``: onnx
    shape inference gives y ``[N, 4, 4]`` for starts ``[0]`` but made-up symbols for ``[-6]`` (the same start)."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4, 6])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4, 4])
    nodes = [
        helper.make_node("Shape", ["x"], ["s"]),
        helper.make_node("Gather", ["s", "i"], ["g"], axis=0),
        helper.make_node("Unsqueeze", ["g", "zero"], ["d"]),
        helper.make_node("Slice", ["x", "starts", "d", "axes"], ["y"]),
    ]
    ints = {"starts": [0], "axes": [2], "i": 1, "zero": [0]}
    inits = [numpy_helper.from_array(np.array(v, np.int64), k) for k, v in ints.items()]
    graph = helper.make_graph(nodes, "g", [x], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


def test_an_equivalent_neighbour_keeps_the_bases_annotations(ex):
    # a refresh from inference made y [unk__0, unk__1, unk__2] on the neighbour: ort:basic keeps each model's
    # annotations, so the pair's parity oracle saw a less precise output the pass did not make
    base = _symbolic_slice()
    neighbour = variation.build(base, "vary:int-negate@starts")[0]
    assert numpy_helper.to_array(next(t for t in neighbour.graph.initializer if t.name == "starts")).tolist() == [-6]
    dims = neighbour.graph.output[0].type.tensor_type.shape.dim
    assert [d.dim_param or d.dim_value for d in dims] == ["N", 4, 4]
    out = vary_probe.judge(Setting("vary-test/slice"), base, "vary:int-negate@starts", "ort:basic", ex)
    assert out.status == "done" and out.pair["status"] == "done" and not out.findings, out
