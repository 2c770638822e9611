"""``cast-across-movement`` (:mod:`passcheck.mutations.cast_across`): a cast round trip with an op that only
moves elements between its two Casts, judged with the real onnx checker and onnxruntime.

A planted pass in the manner of onnxruntime's MatmulTransposeFusion (``ReorderCastAndTranspose`` in
``core/optimizer/matmul_transpose_fusion.cc``: ``Transpose → Cast → MatMul`` becomes ``Cast → Transpose →
MatMul`` so that the Transpose meets the MatMul) that rebuilds the Transpose without its ``perm`` is right on
the base, which has no Cast, and wrong on the rewritten form; the same reordering keeping ``perm`` gives no
finding.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt.probe import Setting, probe
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations._shapes import known
from passcheck.mutations.cast_across import MOVEMENT, widths
from passcheck.mutations.registry import build_form
from tests.hunt.conftest import run_unoptimized

R = REWRITES["cast-across-movement"]
FORM = "cast-across-movement@tr:via-double"


def _base() -> onnx.ModelProto:
    """``y = MatMul(Transpose(x, perm=[1, 0, 2]), W)``, ``x: float[1, N, 4]``, plus a Reshape and a Relu."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, "N", 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 1, 3])
    z = helper.make_tensor_value_info("z", TensorProto.FLOAT, ["N", 4])
    w = numpy_helper.from_array((np.arange(12, dtype=np.float32).reshape(4, 3) - 6) / 4, "W")
    shape = numpy_helper.from_array(np.array([-1, 4], np.int64), "shape")
    nodes = [
        helper.make_node("Transpose", ["x"], ["t"], perm=[1, 0, 2], name="tr"),
        helper.make_node("MatMul", ["t", "W"], ["y"], name="mm"),
        helper.make_node("Reshape", ["x", "shape"], ["r"], name="rs"),
        helper.make_node("Relu", ["r"], ["z"], name="relu"),
    ]
    graph = helper.make_graph(nodes, "cast-across", [x], [y, z], [w, shape])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def _reorder_cast(keep_perm: bool):
    """``MatMul(Cast(Transpose(a)), b)`` → ``MatMul(Transpose(Cast(a)), b)``; without ``keep_perm`` the new
    Transpose is written with no ``perm`` (the reversed axes, Operators.md Transpose)."""

    def rewrite(model: onnx.ModelProto) -> onnx.ModelProto:
        g = model.graph
        made = {o: n for n in g.node for o in n.output}
        for mm in [n for n in g.node if n.op_type == "MatMul"]:
            cast = made.get(mm.input[0])
            tr = made.get(cast.input[0]) if cast is not None and cast.op_type == "Cast" else None
            if tr is None or tr.op_type != "Transpose":
                continue
            to = cast.attribute[0].i
            mid = f"{tr.input[0]}_reordered"
            new_cast = helper.make_node("Cast", [tr.input[0]], [mid], to=to, name=f"{cast.name}_reordered")
            attrs = {a.name: helper.get_attribute_value(a) for a in tr.attribute} if keep_perm else {}
            new_tr = helper.make_node("Transpose", [mid], [f"{mid}_t"], name=f"{tr.name}_reordered", **attrs)
            mm.input[0] = new_tr.output[0]
            at = list(g.node).index(mm)
            g.node.insert(at, new_tr)
            g.node.insert(at, new_cast)
        return model

    return rewrite


def _judge(keep_perm: bool, executor):
    from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

    base = _base()
    mutant, _ = build_form(base, FORM)
    pid = f"planted:reorder-cast-transpose-{'kept' if keep_perm else 'no-perm'}"
    register_pass(FunctionAdapter(pid, _reorder_cast(keep_perm)))
    try:
        return probe(Setting("hunt-test/cast-across"), base, FORM, mutant, pid, executor)
    finally:
        unregister_pass(pid)


def test_movement_nodes_are_sites_and_each_form_is_bit_equal():
    base = _base()
    assert R.sites(base) == ["tr:via-double", "rs:via-double"]  # Relu and MatMul compute: no site
    assert {"Transpose", "Reshape", "Gather", "Slice"} <= MOVEMENT and "Relu" not in MOVEMENT
    feeds = [{"x": np.linspace(-2, 2, n * 4, dtype=np.float32).reshape(1, n, 4)} for n in (2, 5)]
    for label in R.sites(base):
        mutant, applied = R.apply(base, [label])
        assert list(applied.nodes) == [label]
        onnx.checker.check_model(mutant, full_check=True)
        verify_equivalent(base, mutant, feeds, f"cast-across-movement@{label}")
        for f in feeds:
            for a, b in zip(run_unoptimized(mutant, f), run_unoptimized(base, f)):
                assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), label
    mutant, _ = build_form(base, FORM)
    casts = [n for n in mutant.graph.node if n.op_type == "Cast"]
    assert [c.attribute[0].i for c in casts] == [TensorProto.DOUBLE, TensorProto.FLOAT]
    assert casts[1].output[0] == "t"  # the readers still read t, now a Cast of the Transpose's output


def test_a_type_the_op_cannot_take_is_no_width():
    base = _base()
    types = known(base)
    tr = base.graph.node[0]
    assert widths(tr, 17, types) == (TensorProto.DOUBLE,)  # float's only wider type
    relu = base.graph.node[3]
    assert widths(relu, 17, types) == ()


def test_a_reordering_that_drops_perm_is_found_on_the_rewritten_form(inproc_executor):
    out = _judge(keep_perm=False, executor=inproc_executor)
    assert out.status == "done", out
    assert out.findings, out


def test_the_same_reordering_keeping_perm_gives_no_finding(inproc_executor):
    out = _judge(keep_perm=True, executor=inproc_executor)
    assert out.status == "done" and out.findings == [], out
