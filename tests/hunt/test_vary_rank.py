"""The ``reshape-rank`` neighbour (:mod:`passcheck.hunt.vary_rank`): a shape-keeping reader reads its input through
a Reshape to rank r ± 1 and its outputs are reshaped back, judged with real onnxruntime sessions and against a planted
pass that takes every Reshape of a computed value for a layout-only step (``tests/hunt/planted_reshape_rank.py``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from passcheck.hunt import variation, vary_probe, vary_rank
from passcheck.hunt.probe import Setting
from passcheck.mutations.forms import named
from tests._inproc import planted

P = planted(Path(__file__).with_name("planted_cast_pairs.py"))  # the MatMul → BatchNormalization base
S = planted(Path(__file__).with_name("planted_reshape_rank.py"))
SETTING = Setting("rank-test/matmul-bn")


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def _run(model, x):
    import onnxruntime as ort

    return ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def test_the_targets_follow_the_rank_and_the_one_symbolic_dim():
    assert vary_rank.target([None, 4], "up") == [-1, 4, 1]
    assert vary_rank.target([None, 4], "lead") == [1, 4, -1]
    assert vary_rank.target([None, 4], "down") is None  # rank 2: no pair to merge without losing axis 1
    assert vary_rank.target([2, 3, 4], "down") == [2, 12]
    assert vary_rank.target([2, None, 4], "down") is None  # the symbolic dim inside the merged pair
    assert vary_rank.target([None, None], "up") is None  # two dims not static: no single -1
    assert vary_rank.target([0, 4], "lead") is None  # a 0 would need allowzero


def test_sites_are_shape_keeping_readers_that_broadcast_nothing():
    """On ``Neg(BatchNormalization(MatMul(x: [N, 3], w)))``: the BatchNormalization (per-channel operands, not
    broadcast) and the Neg keep their input's shape; the MatMul does not (``[N, 3]`` → ``[N, 4]``)."""
    base = named(P._matmul_bn())
    types = variation._inferred(base)
    sites = {s for k, s in vary_rank.candidates(base, types, lambda n, i: False) if k == "reshape-rank"}
    assert sites == {"bn=up", "bn=lead", "neg=up", "neg=lead"}, sites
    every = {s for k, s in vary_rank.candidates(base, types, lambda n, i: True)}
    assert every == {"neg=up", "neg=lead"}, every  # a reader that broadcasts its other inputs is none


def test_a_reader_of_a_matrix_operand_is_no_site():
    """``Neg(MatMul(x: [N, 4], w: [4, 4]))``: the MatMul keeps its input's shape but reads ``w`` along x's last axis
    (Operators.md MatMul), which ``up`` and ``lead`` move (the onnx checker refused such neighbours in the hunt:
    "Incompatible dimensions"); the Neg is a site and its neighbour passes the checker."""
    from onnx import TensorProto, checker, helper, numpy_helper

    w = numpy_helper.from_array(np.eye(4, dtype=np.float32), "w")
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"], name="mm"),
        helper.make_node("Neg", ["m"], ["y"], name="neg"),
    ]
    base = helper.make_model(helper.make_graph(nodes, "g", [x], [y], [w]), opset_imports=[helper.make_opsetid("", 18)])
    sites = {s for _, s in vary_rank.candidates(base, variation._inferred(base), lambda n, i: False)}
    assert sites == {"neg=up", "neg=lead"}, sites
    forced = named(base)
    assert vary_rank.build(forced, "neg=up", variation._inferred(forced), lambda n, i: False)
    checker.check_model(forced, full_check=True)


def test_lead_regroups_what_the_batchnormalization_reads_and_up_keeps_it(ex):
    """Both neighbours are valid (checker, interface, a run under ``ort:disabled``: :func:`.vary_probe.invalid`) and
    keep ``y``'s shape; onnxruntime 1.32.0 computes other values on ``lead`` (the channel axis holds other elements)
    and the base's on ``up`` (a spatial dim of 1)."""
    base = P._matmul_bn()
    x = np.random.default_rng(1).standard_normal((4, 3)).astype(np.float32)
    want = _run(base, x)
    got = {}
    for tag in ("lead", "up"):
        form = f"vary:reshape-rank@bn={tag}"
        neighbour, labels = variation.build(base, form)
        assert labels == ["bn"]
        reshapes = [n for n in neighbour.graph.node if n.op_type == "Reshape"]
        assert len(reshapes) == 2 and [n.op_type for n in neighbour.graph.node if "m" in n.input] == ["Reshape"]
        assert vary_probe.invalid(SETTING, base, neighbour, ex, form) is None
        got[tag] = _run(neighbour, x)
    assert got["lead"].shape == got["up"].shape == want.shape == (4, 4)
    assert not np.allclose(got["lead"], want) and np.allclose(got["up"], want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(("tag", "found"), [("lead", True), ("up", False)])
def test_a_pass_that_skips_reshapes_is_found_on_the_regrouping_neighbour_only(tag, found, ex):
    out = vary_probe.judge(SETTING, P._matmul_bn(), f"vary:reshape-rank@bn={tag}", S.SKIP_ID, ex)
    assert out.status == "done", out
    assert (("numeric", "wrong-result") in {(f.oracle, f.kind) for f in out.findings}) is found, out.findings


def test_onnxruntimes_basic_level_computes_the_regrouped_batchnormalization_right(ex):
    """onnxruntime 1.32.0 at ``ort:basic`` on the ``lead`` neighbour (MatMul → Reshape → BatchNormalization →
    Reshape, MatmulBNFusion's pattern with a regrouping Reshape) agrees with ``ort:disabled``: no wrong result."""
    out = vary_probe.judge(SETTING, P._matmul_bn(), "vary:reshape-rank@bn=lead", "ort:basic", ex)
    assert out.status == "done", out
    assert not [f for f in out.findings if f.kind == "wrong-result"], out.findings
