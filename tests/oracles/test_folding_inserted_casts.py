"""The folding oracle does not name the Casts onnxruntime inserts around a kernel it lacks for an element
type (``InsertedPrecisionFreeCast_*``, :func:`passcheck.oracles.ort_own_ops.inserted_casts`, the parity
oracle's rule): kernel coverage, not a fold the pass missed."""

from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass


def _div16() -> onnx.ModelProto:
    """y = x / sqrt2 in float16: onnxruntime's CPU provider has no float16 Div."""
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT16, [2, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT16, [2, 4])
    c = numpy_helper.from_array(np.array(1.4142, np.float16), "sqrt2")
    graph = helper.make_graph([helper.make_node("Div", ["x", "sqrt2"], ["y"], name="div")], "g", [x], [y], [c])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])


def _folding(cells) -> list:
    return [f for c in cells for f in c.findings if f.oracle == "folding"]


def test_casts_onnxruntime_inserts_are_no_missed_fold():
    cells = evaluate(Subject("folding/inserted-casts", {"common": _div16()}, [{}, {}]), ["ort:basic"])
    assert [c.ops_after.get("Cast", 0) for c in cells if c.pass_id == "ort:basic"] == [3]  # it did insert them
    assert _folding(cells) == []


def _cast_constant(name: str):
    def cast_constant(model: onnx.ModelProto) -> onnx.ModelProto:
        model.graph.node.insert(0, helper.make_node("Cast", ["sqrt2"], ["sqrt2_c"], name=name, to=TensorProto.FLOAT16))
        model.graph.node[1].input[1] = "sqrt2_c"
        return model

    return cast_constant


def test_the_rule_is_onnxruntime_s_name_for_them():
    found = {}
    for name in ("InsertedPrecisionFreeCast_sqrt2", "cast_sqrt2"):
        pid = f"planted:{name}"
        register_pass(FunctionAdapter(pid, _cast_constant(name), folds_constants=True))
        try:
            cells = evaluate(Subject("folding/inserted-casts", {"common": _div16()}, [{}, {}]), [pid])
        finally:
            unregister_pass(pid)
        found[name] = [f.details.get("node") for f in _folding(cells)]
    assert found == {"InsertedPrecisionFreeCast_sqrt2": [], "cast_sqrt2": ["cast_sqrt2"]}
