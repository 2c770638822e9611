"""An empty int64 value through each of onnx's data propagators (:mod:`passcheck.mutations.empty_values`):
where each rewrite applies, the empty value really empty (onnx's reference evaluator), the full checker
accepting the form, onnxruntime computing the same tensor, and onnx 1.23's data propagation reading the
shape value through each op the schemas give a propagator as it did without."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
import onnxruntime as ort
import pytest
from onnx.reference import ReferenceEvaluator

from passcheck.mutations.empty_values import ABSORBED, PARTS
from passcheck.mutations.registry import REWRITES

#: rewrite → the ops it adds after ``e = Shape(s, 0, 0)``, in order (Constants included).
ADDED = {
    "empty-part-gather": ["Gather"],
    "empty-part-slice": ["Constant", "Constant", "Slice"],
    "empty-part-unsqueeze": ["Constant", "Unsqueeze", "Squeeze"],
    "empty-part-cast": ["Cast"],
    "empty-part-sub": ["Constant", "Sub"],
    "empty-part-mul": ["Constant", "Mul"],
    "empty-part-concat": ["Concat"],
    "empty-size-add": ["Size", "Add"],
    "empty-shape-sub": ["Shape", "Sub"],
    "empty-slice-params": ["Slice"],
    "empty-unsqueeze-axes": ["Unsqueeze"],
    "empty-fill-add": ["ConstantOfShape", "Add"],
    "empty-expand-add": ["Constant", "Expand", "Add"],
    "empty-reshape-add": ["Constant", "Reshape", "Add"],
}
#: What onnx 1.23 infers where it propagates no value: Slice's propagator reads one start / end only, so the
#: Slice's value is unknown (its rank-1 shape, not its values); ConstantOfShape, Expand and Reshape have none, so the
#: head's dim is lost.
NOT_PROPAGATED = {
    "empty-slice-params": [None, None],
    "empty-fill-add": [None, 3],
    "empty-expand-add": [None, 3],
    "empty-reshape-add": [None, 3],
}


def shape_model(opset: int = 17) -> onnx.ModelProto:
    """``y = Reshape(x, Concat(Shape(x, 0, 1), Shape(x, 1)))`` on ``x: [2, 3]`` (its own shape, in two parts),
    ``y`` declared ``[a, b]``."""
    return onnx.parser.parse_model(f"""
        <ir_version: 8, opset_import: ["" : {opset}]>
        g (float[2, 3] x) => (float[a, b] y)
        {{
            head = Shape <start = 0, end = 1> (x)
            tail = Shape <start = 1> (x)
            c = Concat <axis = 0> (head, tail)
            y = Reshape(x, c)
        }}""")


def ort_run(m: onnx.ModelProto, x: np.ndarray) -> np.ndarray:
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def values(m: onnx.ModelProto, names: list[str], feeds: dict) -> list[np.ndarray]:
    """The values of ``names``, by onnx's reference evaluator."""
    probe = onnx.ModelProto()
    probe.CopyFrom(m)
    probe.graph.output.extend(onnx.ValueInfoProto(name=n) for n in names)
    return ReferenceEvaluator(probe).run(names, feeds)


def test_every_rewrite_is_registered():
    assert set(PARTS) | set(ABSORBED) == set(ADDED)
    assert all(rid in REWRITES for rid in ADDED)


@pytest.mark.parametrize("rid", sorted(ADDED))
def test_an_empty_value_enters_the_op_and_the_shape_value_is_unchanged(rid):
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    mutant, applied = REWRITES[rid].apply(shape_model())
    assert applied.nodes == ("#2:Concat",)
    onnx.checker.check_model(mutant, full_check=True)
    ops = [n.op_type for n in mutant.graph.node]
    assert ops[2:3] == ["Shape"] and ops[3 : 3 + len(ADDED[rid])] == ADDED[rid]
    concat = next(n for n in mutant.graph.node if n.op_type == "Concat" and n.output[0] == "c")
    empty = mutant.graph.node[2].output[0]
    got_empty, first, whole = values(mutant, [empty, concat.input[0], "c"], {"x": x})
    assert got_empty.dtype == np.int64 and got_empty.shape == (0,)
    if rid in PARTS:
        assert len(concat.input) == 3 and first.shape == (0,)
    else:
        assert len(concat.input) == 2 and first.tolist() == [2]
    assert whole.tolist() == [2, 3]
    want, got = ort_run(shape_model(), x), ort_run(mutant, x)
    assert got.shape == want.shape == (2, 3) and np.array_equal(got, want)
    inferred = onnx.shape_inference.infer_shapes(mutant, data_prop=True).graph.output[0].type.tensor_type.shape
    dims = [d.dim_value if d.HasField("dim_value") else None for d in inferred.dim]
    assert dims == NOT_PROPAGATED.get(rid, [2, 3])


def test_strict_data_propagation_accepts_every_form():
    for rid in ADDED:
        mutant, _ = REWRITES[rid].apply(shape_model())
        onnx.shape_inference.infer_shapes(mutant, True, True, True)


def test_where_no_spelling_holds_there_is_no_site():
    for rid in ADDED:
        assert REWRITES[rid].sites(shape_model(opset=14)) == [], rid  # Shape's start / end: opset 15
    floats = onnx.parser.parse_model("""
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[N, 3] a, float[N, 4] b) => (float[N, 7] y)
        { y = Concat <axis = 1> (a, b) }""")
    assert all(REWRITES[rid].sites(floats) == [] for rid in ADDED)  # not an int64 rank-1 value
