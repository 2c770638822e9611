"""Fixtures shared by the hunt tests."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def inproc_executor():
    """An executor that runs passes in this process, so a pass registered by the test module is known to it."""
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


def run_unoptimized(model, feeds) -> list:
    """``model`` run by onnxruntime's CPU provider with every graph optimization off, on ``feeds``."""
    import onnxruntime as ort

    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)


def qdq_gemm(opset: int = 13):
    """``y = Gemm(a, B, C)`` named ``gm``, a ``float[3, 4]``, B ``[4, 5]`` and C ``[5]`` initializers (C in ±2): the
    base the QDQ neighbours' tests wrap (:mod:`passcheck.hunt.vary_qdq`, :mod:`passcheck.hunt.chain`)."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    inits = [
        numpy_helper.from_array(rng.uniform(-1, 1, (4, 5)).astype(np.float32), "B"),
        numpy_helper.from_array(rng.uniform(-2, 2, (5,)).astype(np.float32), "C"),
    ]
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [3, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [3, 5])
    graph = helper.make_graph([helper.make_node("Gemm", ["a", "B", "C"], ["y"], name="gm")], "g", [a], [y], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)], ir_version=8)


def declared_dims(vi) -> list:
    """The dims a ValueInfoProto declares: ``dim_value`` or ``dim_param`` per axis."""
    return [d.dim_value if d.HasField("dim_value") else d.dim_param for d in vi.type.tensor_type.shape.dim]


def judge_planted(case_id: str, base, form: str, pass_id: str, rewrite, executor):
    """``form``'s neighbour of ``base`` judged (:func:`passcheck.hunt.vary_probe.judge`) under ``rewrite``
    registered as ``pass_id`` for this call only."""
    from passcheck.hunt import vary_probe
    from passcheck.hunt.probe import Setting
    from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

    register_pass(FunctionAdapter(pass_id, rewrite))
    try:
        return vary_probe.judge(Setting(case_id), base, form, pass_id, executor)
    finally:
        unregister_pass(pass_id)


def drawn(scheduler, steps: int) -> list:
    """The items ``scheduler`` picks in its first ``steps`` steps (each marked tried), fewer when it runs out."""
    items = []
    for step in range(steps):
        item = scheduler.next(step)
        if item is None:
            break
        items.append(item)
        scheduler.mark(item)
    return items
