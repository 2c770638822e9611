"""``fanout-initializer`` (:mod:`passcheck.hunt.vary_struct`): a float initializer one node reads, read by one more
node whose result is a new graph output, judged with real onnxruntime runs.

A planted pass in the manner of onnxruntime's dynamic quantizer up to 1.28 (``ONNXModel.__replace_gemm_with_matmul``:
a ``Gemm(x, W, transB=1)`` becomes ``MatMul(x, W)`` with ``W`` transposed *under its own name*, "assume B is not used
by any other node") is right on the base, whose only reader of ``W`` is that Gemm; the neighbour's second reader sees
the transposed weight. The same rewrite writing the transposed weight under a new name (1.32.0's) gives no finding.
"""

from __future__ import annotations

import random

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.hunt import variation, vary_struct
from tests.hunt.conftest import judge_planted

FORM = f"vary:{vary_struct.INITIALIZER}@W"


def _base() -> onnx.ModelProto:
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, ["N", 4])
    w = numpy_helper.from_array((np.arange(32, dtype=np.float32).reshape(4, 8) - 16) / 8, "W")
    axes = numpy_helper.from_array(np.array([1], np.int64), "axes")
    nodes = [
        helper.make_node("Gemm", ["x", "W"], ["g"], transB=1, name="gemm"),
        helper.make_node("Unsqueeze", ["g", "axes"], ["u"], name="unsq"),
        helper.make_node("Squeeze", ["u", "axes"], ["y"], name="sq"),
    ]
    graph = helper.make_graph(nodes, "shared-weight", [x], [y], [w, axes])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)


def _gemm_to_matmul(in_place: bool):
    """``Gemm(x, B, transB=1)`` (no C, alpha = beta = 1) → ``MatMul(x, Bᵀ)``; ``in_place``: ``Bᵀ`` replaces the
    initializer ``B`` (every reader of ``B`` now reads ``Bᵀ``), else it is a new initializer ``B_Transposed``."""

    def rewrite(model: onnx.ModelProto) -> onnx.ModelProto:
        g = model.graph
        inits = {t.name: t for t in g.initializer}
        for n in g.node:
            trans_b = next((a.i for a in n.attribute if a.name == "transB"), 0)
            if n.op_type != "Gemm" or len(n.input) != 2 or not trans_b or n.input[1] not in inits:
                continue
            b = inits[n.input[1]]
            flipped = numpy_helper.from_array(numpy_helper.to_array(b).T.copy(), b.name)
            if in_place:
                b.CopyFrom(flipped)
            else:
                flipped.name = f"{b.name}_Transposed"
                g.initializer.append(flipped)
                n.input[1] = flipped.name
            n.op_type = "MatMul"
            del n.attribute[:]
        return model

    return rewrite


def _judge(form: str, in_place: bool, executor):
    pid = f"planted:gemm-to-matmul-{'in-place' if in_place else 'renamed'}"
    return judge_planted("vary-test/shared-weight", _base(), form, pid, _gemm_to_matmul(in_place), executor)


def test_a_float_initializer_with_one_reader_is_a_site_and_the_neighbour_is_valid():
    base = _base()
    # W: float, one reader; axes: an int64 constant read by two nodes (no site on either count)
    assert vary_struct.initializer_sites(base) == ["W"]
    assert FORM in variation.neighbours(base, random.Random(0))
    fanned, labels = variation.build(base, FORM)
    onnx.checker.check_model(fanned, full_check=True)
    assert labels == ["W"] and [o.name for o in fanned.graph.output] == ["y", "W__fanout"]
    extra = fanned.graph.node[-1]
    assert (extra.op_type, list(extra.input)) == ("Neg", ["W"])
    assert [d.dim_value for d in fanned.graph.output[1].type.tensor_type.shape.dim] == [4, 8]
    assert [o.name for o in base.graph.output] == ["y"]  # the base is never modified


def test_an_overridable_or_shared_initializer_is_no_site():
    base = _base()
    base.graph.input.append(helper.make_tensor_value_info("W", TensorProto.FLOAT, [4, 8]))  # overridable
    assert vary_struct.initializer_sites(base) == []
    base = _base()
    base.graph.node.append(helper.make_node("Relu", ["W"], ["r"]))  # a second reader already
    assert vary_struct.initializer_sites(base) == []
    assert variation.build(base, FORM) is None


def test_a_weight_rewritten_in_place_is_found_through_its_other_reader(inproc_executor):
    out = _judge(FORM, in_place=True, executor=inproc_executor)
    assert out.status == "done", out
    # W__fanout is Neg(Wᵀ) where Neg(W) is meant: a [8, 4] output for a [4, 8] one
    assert ("numeric", "wrong-result") in {(f.oracle, f.kind) for f in out.findings}, out.findings


def test_the_same_rewrite_under_a_new_name_gives_no_finding(inproc_executor):
    out = _judge(FORM, in_place=False, executor=inproc_executor)
    assert out.status == "done" and out.findings == [], out
