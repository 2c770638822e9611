"""onnxslim in the coverage catalogue (``passcheck/coverage/onnxslim.py``): its pattern registry and any-op steps
read from the installed package, evidence observed by effect while ``slim`` runs in the isolation worker, and the
``onnxslim:slim`` pass scoped to those entries (before, it declared no catalogue tool and counted as running every
entry of every tool)."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.coverage.cache import Cache
from passcheck.coverage.entry import PassScope
from passcheck.coverage.map import compute
from tests.coverage._tool_catalogue import Base, entries_of

# found, not imported: importing onnxslim at collection cost every xdist worker ~0.8 s of CPU; the tests import it
pytestmark = pytest.mark.skipif(importlib.util.find_spec("onnxslim") is None, reason="onnxslim is not installed")


def _model(batch=2):
    """``y = MatMul(x, w) + b`` (x ``[batch, 3]``; static: onnxslim's FusionGemm) and two identical ``Add(x, c)`` read
    by a Relu each (its subexpression elimination); ``z = Relu(x)`` alone matches no pattern."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [batch, 3])
    outs = [
        helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
        for n, s in (("y", [batch, 4]), ("p1", [batch, 3]), ("q1", [batch, 3]))
    ]
    inits = [
        numpy_helper.from_array(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4), "w"),
        numpy_helper.from_array(np.ones(4, np.float32), "b"),
        numpy_helper.from_array(np.full(3, 0.5, np.float32), "c"),
    ]
    nodes = [
        helper.make_node("MatMul", ["x", "w"], ["m"]),
        helper.make_node("Add", ["m", "b"], ["y"]),
        helper.make_node("Add", ["x", "c"], ["p"]),
        helper.make_node("Add", ["x", "c"], ["q"]),
        helper.make_node("Relu", ["p"], ["p1"]),
        helper.make_node("Relu", ["q"], ["q1"]),
    ]
    graph = helper.make_graph(nodes, "g", [x], outs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


@pytest.fixture(scope="module")
def entries(executor, cache_dir):
    return entries_of(executor, cache_dir, "onnxslim")


def test_the_entries_are_the_registry_s_patterns_and_the_any_op_steps(entries):
    from onnxslim.core.pattern.registry import DEFAULT_FUSION_PATTERNS

    assert set(DEFAULT_FUSION_PATTERNS) <= set(entries)
    gemm = entries["FusionGemm"]
    assert gemm.kind == "fusion" and gemm.scope.startswith("ops MatMul, Add")  # the Pattern text's own ops
    assert gemm.passes == ("onnxslim:slim", "cmd+fold:onnxslim")
    steps = {n for n, e in entries.items() if e.kind == "pass"}
    assert steps == {"constant_folding", "dead_node_elimination", "subexpression_elimination", "shape_infer"}


def test_evidence_is_slim_s_own_effect_and_the_tool_is_left_as_it_was(executor, cache_dir):
    cmap = compute([Base("t/fuse", _model())], executor, ("onnxslim",), Cache(folder=cache_dir))
    got = {k: [e.effect for e in v] for k, v in cmap.evidence.items()}
    assert got["onnxslim:fusion:FusionGemm"] == ["FusionGemm replaced MatMul node (1 nodes written)"]
    assert "onnxslim:pass:subexpression_elimination" in got
    assert got["onnxslim:pass:shape_infer"][0].startswith("shape_infer: ")  # slim runs it on every base it takes
    assert not any(k.startswith("onnxslim:fusion:") and k != "onnxslim:fusion:FusionGemm" for k in got), got
    # the batch named: FusionGemm's matcher matches, its rewrite declines (static dims only): no evidence
    named = compute([Base("t/named", _model("N"))], executor, ("onnxslim",), Cache(folder=cache_dir))
    assert "onnxslim:fusion:FusionGemm" not in named.evidence, named.evidence
    from passcheck.coverage import onnxslim as C

    C.triggers(_model())  # in this process too: every wrapped matcher and function restored afterwards
    assert not [m for ms in C._matchers().values() for m in ms if "rewrite" in m.__dict__]
    import onnxslim.core.optimization as opt

    assert opt.subexpression_elimination.__module__.startswith("onnxslim")
    import onnxslim.core

    assert onnxslim.core.shape_infer.__module__ == "onnxslim.core"


def test_the_slim_passes_run_only_onnxslim_s_entries(entries):
    every = list(entries.values())
    scope = PassScope(every)
    assert not scope.unscoped("onnxslim:slim") and not scope.unscoped("cmd+fold:onnxslim")
    assert scope.tools(every, ["onnxslim:slim"]) == ("onnxslim",)
    assert all(scope.runs(e, "onnxslim:slim") for e in every)
