"""A pass output that crashes onnxruntime when it *runs* costs that run, not the whole run:
with the isolated executor, model runs go through the same worker as the passes."""

from __future__ import annotations

import numpy as np

from passcheck.cases.builders import FLOAT, model, node, tensor, vi
from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from passcheck.passes.isolation import IsolatedExecutor


def _bn9_all_outputs_empty(_model):
    """BatchNormalization-9 with its four optional outputs written as "": onnxruntime 1.32
    segfaults running it (a real crash, used here as a planted one)."""
    inits = [tensor(n, np.ones(3, np.float32)) for n in ("s", "b", "m", "v")]
    return model(
        [node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y", "", "", "", ""])],
        [vi("x", FLOAT, [2, 3, 4])],
        [vi("y", FLOAT, [2, 3, 4])],
        opset=9,
        initializers=inits,
    )


def _relu_model():
    return model([node("Relu", ["x"], ["y"])], [vi("x", FLOAT, [2, 3, 4])], [vi("y", FLOAT, [2, 3, 4])], opset=9)


def test_output_that_crashes_onnxruntime_costs_only_its_cell():
    register_pass(FunctionAdapter("planted:bn9-crash", _bn9_all_outputs_empty))
    try:
        subject = Subject(id="model/relu", forms={"common": _relu_model()}, bindings=({}, {}))
        with IsolatedExecutor(timeout=60) as ex:
            cells = evaluate(subject, ["planted:bn9-crash", "onnx:infer-shapes"], executor=ex)
    finally:
        unregister_pass("planted:bn9-crash")
    by_pass = {c.pass_id: c for c in cells}
    crash = [f for f in by_pass["planted:bn9-crash"].findings if f.oracle == "numeric"]
    assert crash and "SIGSEGV" in crash[0].message
    assert by_pass["onnx:infer-shapes"].status == "unchanged" and not by_pass["onnx:infer-shapes"].findings
    assert not by_pass["input"].findings
