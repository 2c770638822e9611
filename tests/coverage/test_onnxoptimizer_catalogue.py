"""onnxoptimizer in the coverage catalogue (``passcheck/coverage/onnxoptimizer.py``): one entry per pass the installed
onnxoptimizer lists, evidence by the effect of each pass run alone in the isolation worker, and the onnxoptimizer
passes scoped to those entries (before, they declared no catalogue tool and counted as running every entry of every
tool)."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.coverage.cache import Cache
from passcheck.coverage.entry import PassScope
from passcheck.coverage.map import compute
from tests.coverage._tool_catalogue import Base, entries_of

onnxoptimizer = pytest.importorskip("onnxoptimizer")


def _model(perm=(0, 1)):
    """``y = Relu(Identity(Transpose(x, perm)))`` (x ``[2, 2]``) and ``z = MatMul(x, w) + b``: with the identity
    ``perm`` eliminate_nop_transpose removes the Transpose; eliminate_identity removes the Identity;
    fuse_matmul_add_bias_into_gemm writes a Gemm for the Add."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 2])
    outs = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2, 2]) for n in ("y", "z")]
    inits = [
        numpy_helper.from_array(np.eye(2, dtype=np.float32), "w"),
        numpy_helper.from_array(np.ones(2, np.float32), "b"),
    ]
    nodes = [
        helper.make_node("Transpose", ["x"], ["t"], perm=list(perm)),
        helper.make_node("Identity", ["t"], ["u"]),
        helper.make_node("Relu", ["u"], ["y"]),
        helper.make_node("MatMul", ["x", "w"], ["m"]),
        helper.make_node("Add", ["m", "b"], ["z"]),
    ]
    graph = helper.make_graph(nodes, "g", [x], outs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


@pytest.fixture(scope="module")
def entries(executor, cache_dir):
    return entries_of(executor, cache_dir, "onnxoptimizer")


def test_the_entries_are_the_available_passes_with_the_passcheck_passes_that_run_them(entries):
    from passcheck.passes.onnxoptimizer_passes import NOT_COMPUTATION_PRESERVING, NOT_REWRITING

    listed = set(onnxoptimizer.get_available_passes()) - set(NOT_COMPUTATION_PRESERVING) - NOT_REWRITING
    assert set(entries) == listed
    assert entries["fuse_bn_into_conv"].passes == ("onnxoptimizer:pass-fuse-bn-into-conv", "onnxoptimizer:optimize")
    assert entries["fuse_bn_into_conv"].scope == "default passes"
    opt_in = sorted(set(entries) - set(onnxoptimizer.get_fuse_and_elimination_passes()))
    assert opt_in and all(entries[n].passes[1] == "onnxoptimizer:opt-in" for n in opt_in)


def test_evidence_is_each_pass_s_own_effect(executor, cache_dir):
    cmap = compute([Base("t/nop", _model())], executor, ("onnxoptimizer",), Cache(folder=cache_dir))
    got = {k: [e.effect for e in v] for k, v in cmap.evidence.items()}
    assert got["onnxoptimizer:pass:eliminate_nop_transpose"] == [
        "eliminate_nop_transpose replaced Transpose node (nodes 5→4)"
    ]
    assert got["onnxoptimizer:pass:eliminate_identity"] == ["eliminate_identity replaced Identity node (nodes 5→4)"]
    # the fusion writes a Gemm in the Add's place (the MatMul it reads is left for eliminate_deadend)
    assert got["onnxoptimizer:pass:fuse_matmul_add_bias_into_gemm"] == [
        "fuse_matmul_add_bias_into_gemm replaced Add node (nodes 5→5)"
    ]
    # a real permutation: the Transpose is no no-op, and nothing else the passes do changed
    moved = compute([Base("t/perm", _model((1, 0)))], executor, ("onnxoptimizer",), Cache(folder=cache_dir))
    assert "onnxoptimizer:pass:eliminate_nop_transpose" not in moved.evidence, moved.evidence
    assert "onnxoptimizer:pass:eliminate_identity" in moved.evidence


def test_the_onnxoptimizer_passes_run_only_their_own_entries(entries):
    every = list(entries.values())
    scope = PassScope(every)
    for pid in ("onnxoptimizer:optimize", "onnxoptimizer:opt-in", "onnxoptimizer:pass-fuse-bn-into-conv"):
        assert not scope.unscoped(pid)
        assert scope.tools(every, [pid]) == ("onnxoptimizer",)
    default = set(onnxoptimizer.get_fuse_and_elimination_passes())
    assert {e.name for e in every if scope.runs(e, "onnxoptimizer:optimize")} == set(entries) & default
    assert [e.name for e in every if scope.runs(e, "onnxoptimizer:pass-fuse-bn-into-conv")] == ["fuse_bn_into_conv"]
