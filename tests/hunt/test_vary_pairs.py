"""Pair neighbours (:mod:`passcheck.hunt.vary_pairs`): a Cast pair through a narrowing type and a Transpose
pair whose product is no identity, judged with real onnxruntime runs against planted passes that cancel every
such pair (``tests/hunt/planted_cast_pairs.py``); the ``cast-round-trip`` forms, whose pairs are identities,
show those passes nothing."""

from __future__ import annotations

import json
import random
from pathlib import Path

import onnx
import pytest

from passcheck.hunt import variation, vary_probe
from passcheck.hunt.probe import Setting
from tests._inproc import cli, planted

PLANTED = Path(__file__).with_name("planted_cast_pairs.py")


P = planted(PLANTED)  # the planted passes and their bases, registered on import


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def test_every_read_value_is_a_site_and_each_neighbour_is_valid_and_differs(ex):
    base = P._tanh()
    forms = variation.neighbours(base, random.Random(0))
    pairs = sorted(f for f in forms if variation.family(f) in ("cast", "transpose"))
    on = {f"vary:{k}@{v}" for k in ("cast-narrow", "transpose-pair") for v in "xtm"}  # x, t, m; not y, w, b
    assert set(pairs) <= on and len(pairs) == 4, pairs  # two sites sampled per kind
    narrowed, labels = variation.build(base, "vary:cast-narrow@t")
    casts = [n for n in narrowed.graph.node if n.op_type == "Cast"]
    assert labels == ["t"] and [c.attribute[0].i for c in casts] == [onnx.TensorProto.FLOAT16, onnx.TensorProto.FLOAT]
    paired, _ = variation.build(base, "vary:transpose-pair@x")
    assert [list(n.attribute[0].ints) for n in paired.graph.node if n.op_type == "Transpose"] == [[1, 2, 0]] * 2
    for form in ("vary:cast-narrow@t", "vary:transpose-pair@x"):
        neighbour, _ = variation.build(base, form)
        assert vary_probe.invalid(Setting("pair-test/tanh"), base, neighbour, ex, form) is None


@pytest.mark.parametrize(
    ("form", "pass_id"),
    [("vary:cast-narrow@t", P.CAST_ID), ("vary:cast-narrow@x", P.CAST_ID), ("vary:transpose-pair@x", P.TRANSPOSE_ID)],
)
def test_a_pass_that_cancels_every_pair_is_found_on_the_neighbour(form, pass_id, ex):
    out = vary_probe.judge(Setting("pair-test/tanh"), P._tanh(), form, pass_id, ex)
    assert out.status == "done", out
    assert ("numeric", "wrong-result") in {(f.oracle, f.kind) for f in out.findings}, out.findings


def test_the_round_trip_forms_show_the_cast_pass_nothing():
    from passcheck.engine import Subject, evaluate
    from passcheck.mutations import REWRITES

    base = P._tanh()
    labels = REWRITES["cast-round-trip"].sites(base)
    assert {"x:via-double", "t:via-double", "m:via-double"} <= set(labels)
    mutant, _ = REWRITES["cast-round-trip"].apply(base)
    assert sum(n.op_type == "Cast" for n in mutant.graph.node) == 2 * len(labels)
    cells = evaluate(
        Subject(id="pair-test/tanh", forms={"common": base, "round-trip": mutant}, bindings=[{}]), [P.CAST_ID]
    )
    assert {c.form: c.status for c in cells if c.pass_id == P.CAST_ID} == {
        "common": "unchanged",
        "round-trip": "changed",
    }
    assert not [f for c in cells for f in c.findings] and not [c.unchecked for c in cells if c.unchecked], cells


def test_a_small_hunt_finds_the_cast_pass_only_through_a_cast_narrow_neighbour(tmp_path):
    argv = ["hunt", "--cases-from", PLANTED, "--case", "pair-test/*"]  # in this process (tests/_inproc.py)
    argv += ["--pass", P.CAST_ID, "--budget", "40items", "--seed", "3", "--no-coverage", "--out", tmp_path]
    argv += ["--rewrite", "cast-round-trip", "--vary-kind", "cast-narrow"]  # the two it is about, however many join
    r = cli(*argv, "--progress", "none")
    assert r.returncode == 1, r.stdout + r.stderr
    state = json.loads((tmp_path / "hunt-state.json").read_text())
    wrong = [s for s in state["signatures"].values() if s["signature"]["kind"] == "wrong-result"]
    assert wrong and {s["signature"]["rewrite"] for s in wrong} == {"vary:cast-narrow"}, wrong
    tried = {i["form"].split("@")[0] for i in state["items"]}
    assert "cast-round-trip" in tried, sorted(tried)
    assert all(f.startswith("vary:cast-narrow") or "cast-round-trip" in f for f in tried), sorted(tried)  # the pins


@pytest.mark.parametrize(
    ("shape", "opset", "built"), [([2, 0, 3], 18, True), ([2, 0, 3], 13, False), ([2, 4, 3], 7, True)]
)
def test_a_transpose_pair_keeps_a_static_or_zero_size_shape(shape, opset, built):
    """A static shape is an initializer (the version converter takes Reshape-5 down to 4 only with a constant
    shape); a zero-size dim needs Reshape-14's ``allowzero`` (below it a 0 copies the transposed input's dim)."""
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper, version_converter

    x, y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, shape) for n in "xy")
    nodes = [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])]
    base = helper.make_model(helper.make_graph(nodes, "g", [x], [y]), opset_imports=[helper.make_opsetid("", opset)])
    out = variation.build(base, "vary:transpose-pair@r")
    assert (out is not None) == built
    if out is None:
        return
    onnx.checker.check_model(out[0], full_check=True)
    feed = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    got = ort.InferenceSession(out[0].SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": feed})
    assert got[0].shape == tuple(shape)
    if opset < 14:
        assert version_converter.convert_version(out[0], 4).opset_import[0].version == 4
