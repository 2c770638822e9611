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
