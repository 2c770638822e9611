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
    # rank 3 throughout: no transpose-regroup site (rank 2 only)
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


def test_a_transpose_regroup_is_offered_on_rank_two_values_only():
    """Rank 2 with neither dim statically 1: ``x`` [N, 3], ``m`` [N, 4], ``n``; not the rank-3 values of the
    tanh base, nor a [1, 4] value (a Transpose of it moves no element)."""
    from passcheck.hunt import vary_pairs

    base = P._matmul_bn()
    sites = {v for k, v in vary_pairs.candidates(base, variation._inferred(base)) if k == "transpose-regroup"}
    assert sites == {"x", "m", "n"}, sites
    assert not [
        k for k, _ in vary_pairs.candidates(P._tanh(), variation._inferred(P._tanh())) if k == "transpose-regroup"
    ]
    one = P._matmul_bn()
    one.graph.input[0].type.tensor_type.shape.dim[0].dim_value = 1
    one.graph.output[0].type.tensor_type.shape.dim[0].dim_value = 1
    assert "m" not in {v for k, v in vary_pairs.candidates(one, variation._inferred(one)) if k == "transpose-regroup"}


def test_a_transpose_regroup_keeps_the_shape_and_moves_the_elements(ex):
    """The neighbour is valid (checker, interface, runs under ``ort:disabled``: :func:`.vary_probe.invalid`), reads
    ``m`` once, keeps ``y``'s shape, and computes another ``y`` than the base on the same feed (the elements moved)."""
    import numpy as np
    import onnxruntime as ort

    base = P._matmul_bn()
    neighbour, labels = variation.build(base, "vary:transpose-regroup@m")
    assert labels == ["m"]
    assert [list(n.attribute[0].ints) for n in neighbour.graph.node if n.op_type == "Transpose"] == [[1, 0]]
    # m: [N, 4], one dim not static: the shape is a constant [-1, 4], so m keeps one reader (the Transpose)
    assert [n.op_type for n in neighbour.graph.node if "m" in n.input] == ["Transpose"]
    assert vary_probe.invalid(Setting("pair-test/matmul-bn"), base, neighbour, ex, "vary:transpose-regroup@m") is None
    feed = {"x": np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32)}

    def run(m):
        return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)[0]

    a, b = run(base), run(neighbour)
    assert a.shape == b.shape == (4, 4) and not np.allclose(a, b)


def test_a_pass_that_takes_a_regroup_for_the_identity_is_found_on_the_neighbour(ex):
    out = vary_probe.judge(Setting("pair-test/matmul-bn"), P._matmul_bn(), "vary:transpose-regroup@m", P.REGROUP_ID, ex)
    assert out.status == "done", out
    assert ("numeric", "wrong-result") in {(f.oracle, f.kind) for f in out.findings}, out.findings


def test_a_transpose_pair_on_one_symbolic_dim_keeps_its_value_one_reader():
    """``r: float[N, 3, 4]``: the Reshape's shape is the constant ``[-1, 3, 4]``, not ``Shape(r)``, so ``r`` keeps the
    one reader a single-consumer fusion asks for; onnxruntime runs it at N = 2 to r's shape."""
    import numpy as np
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    x, y = (helper.make_tensor_value_info(n, TensorProto.FLOAT, ["N", 3, 4]) for n in "xy")
    nodes = [helper.make_node("Relu", ["x"], ["r"]), helper.make_node("Neg", ["r"], ["y"])]
    base = helper.make_model(helper.make_graph(nodes, "g", [x], [y]), opset_imports=[helper.make_opsetid("", 18)])
    out, _ = variation.build(base, "vary:transpose-pair@r")
    onnx.checker.check_model(out, full_check=True)
    assert [n.op_type for n in out.graph.node if "r" in n.input] == ["Transpose"]
    reshape = next(n for n in out.graph.node if n.op_type == "Reshape")
    shapes = {t.name: numpy_helper.to_array(t).tolist() for t in out.graph.initializer}
    assert shapes[reshape.input[1]] == [-1, 3, 4]
    feed = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    got = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": feed})
    assert got[0].shape == (2, 3, 4) and not np.array_equal(got[0], -feed)
