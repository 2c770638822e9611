"""``transpose-conjugate-perm`` (:mod:`passcheck.mutations.transpose_perms`): an op computed in every layout of
its axes, judged with the real onnx checker and onnxruntime.

A planted pass in the manner of a MatMul-Transpose fusion that takes the batch flip ``[1, 0, 2]`` on MatMul's A for
the swap of the last two axes (``[0, 2, 1]``: FusedMatMul's ``transA``, not ``transBatchA``) is right on the base
(no Transpose), right on the fixed layout of ``transpose-conjugate`` (reversed axes, ``[2, 1, 0]``) and on the
``perm-0.2.1`` site, and wrong on the ``perm-1.0.2`` site alone.
"""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt.probe import Setting, probe
from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations.registry import build_form
from passcheck.mutations.transpose_perms import perm_label, perms

R = REWRITES["transpose-conjugate-perm"]


def _base(rank4: bool = False) -> onnx.ModelProto:
    """``y = MatMul(Relu(x), W)``, ``x: float[3, N, 3]``; with ``rank4`` also ``z = Sigmoid(v)``, ``v`` of rank 4,
    and ``u = Neg(q)``, ``q`` of rank 5."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3, "N", 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, "N", 3])
    ins, outs = [x], [y]
    w = numpy_helper.from_array((np.arange(9, dtype=np.float32).reshape(3, 3) - 4) / 4, "W")
    nodes = [
        helper.make_node("Relu", ["x"], ["a"], name="relu"),
        helper.make_node("MatMul", ["a", "W"], ["y"], name="mm"),
    ]
    if rank4:
        ins += [
            helper.make_tensor_value_info("v", TensorProto.FLOAT, [1, 2, 3, 4]),
            helper.make_tensor_value_info("q", TensorProto.FLOAT, [1, 2, 1, 2, 1]),
        ]
        outs += [
            helper.make_tensor_value_info("z", TensorProto.FLOAT, [1, 2, 3, 4]),
            helper.make_tensor_value_info("u", TensorProto.FLOAT, [1, 2, 1, 2, 1]),
        ]
        nodes += [
            helper.make_node("Sigmoid", ["v"], ["z"], name="sig"),
            helper.make_node("Neg", ["q"], ["u"], name="neg"),
        ]
    graph = helper.make_graph(nodes, "perms", ins, outs, [w])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def test_every_permutation_up_to_rank_4_is_a_site_and_each_form_is_equal():
    base = _base(rank4=True)
    got = R.sites(base)
    want = [perm_label("relu", p) for p in perms(3)] + [perm_label("sig", p) for p in perms(4)]
    assert got == want and len(got) == 6 + 24  # MatMul is no conjugated op; rank 5 is left alone
    assert len(set(got)) == len(got) and "relu:perm-1.0.2" in got
    rng = np.random.default_rng(0)
    feeds = [
        {
            "x": rng.standard_normal((3, n, 3)).astype(np.float32),
            "v": rng.standard_normal((1, 2, 3, 4)).astype(np.float32),
            "q": rng.standard_normal((1, 2, 1, 2, 1)).astype(np.float32),
        }
        for n in (2, 3)
    ]
    for label in got:
        mutant, applied = R.apply(base, [label])
        assert list(applied.nodes) == [label]
        perm = [list(n.attribute[0].ints) for n in mutant.graph.node if n.op_type == "Transpose"][0]
        assert ".".join(map(str, perm)) == label.rsplit("perm-", 1)[1]  # the label names the perm written
        onnx.checker.check_model(mutant, full_check=True)
        verify_equivalent(base, mutant, feeds, f"transpose-conjugate-perm@{label}")


def test_all_at_once_writes_one_non_identity_permutation_per_node_the_same_each_time():
    base = _base(rank4=True)
    first = R.apply(base)
    again = R.apply(base)
    assert list(first[1].nodes) == list(again[1].nodes)
    assert [n.split(":", 1)[0] for n in first[1].nodes] == ["relu", "sig"]
    assert not any(n.endswith(("perm-0.1.2", "perm-0.1.2.3")) for n in first[1].nodes)
    assert onnx.printer.to_text(first[0]) == onnx.printer.to_text(again[0])


def _batch_flip_as_trans_a(model: onnx.ModelProto) -> onnx.ModelProto:
    """``MatMul(Transpose(a, [1, 0, 2]), b)`` → ``MatMul(Transpose(a, [0, 2, 1]), b)``: the batch flip taken for the
    swap of the last two axes; every other Transpose left as it is."""
    g = model.graph
    made = {o: n for n in g.node for o in n.output}
    for mm in [n for n in g.node if n.op_type == "MatMul"]:
        tr = made.get(mm.input[0])
        if tr is None or tr.op_type != "Transpose":
            continue
        perm = [a for a in tr.attribute if a.name == "perm"]
        if perm and list(perm[0].ints) == [1, 0, 2]:
            del perm[0].ints[:]
            perm[0].ints.extend([0, 2, 1])
    return model


def _judge(form: str, executor):
    from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

    base = _base()
    mutant, _ = build_form(base, form)
    pid = "planted:batch-flip-as-trans-a"
    register_pass(FunctionAdapter(pid, _batch_flip_as_trans_a))
    try:
        return probe(Setting("hunt-test/transpose-perms"), base, form, mutant, pid, executor)
    finally:
        unregister_pass(pid)


def test_a_pass_mishandling_the_batch_flip_is_found_on_that_permutation(inproc_executor):
    out = _judge("transpose-conjugate-perm@relu:perm-1.0.2", inproc_executor)
    assert out.status == "done", out
    assert out.findings, out


def test_the_same_pass_is_right_on_the_fixed_layout_and_another_permutation(inproc_executor):
    for form in ("transpose-conjugate", "transpose-conjugate-perm@relu:perm-0.2.1"):
        out = _judge(form, inproc_executor)
        assert out.status == "done" and out.findings == [], (form, out)
