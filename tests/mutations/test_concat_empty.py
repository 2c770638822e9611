"""An empty first part of a Concat (:mod:`passcheck.mutations.concat_empty`): where each spelling applies, the
part really empty (onnx's reference evaluator), the full checker accepting the form, onnxruntime computing the
same tensor, and onnx data propagation reading the shape value through it as it did without."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
import onnxruntime as ort
import pytest
from onnx.reference import ReferenceEvaluator

from passcheck.mutations.registry import REWRITES

SPELLINGS = {
    "concat-empty-initializer": [],
    "concat-empty-shape": ["Shape"],
    "concat-empty-broadcast": ["Shape", "Constant", "Add"],
}


def shape_model(opset: int = 17) -> onnx.ModelProto:
    """``z = Reshape(x, Concat(Shape(x, 0, 1), [-1]))`` on ``x: [2, 3]``, ``z`` declared ``[p, q]``."""
    return onnx.parser.parse_model(f"""
        <ir_version: 8, opset_import: ["" : {opset}]>
        g (float[2, 3] x) => (float[p, q] z)
        <int64[1] m1 = {{-1}}>
        {{
            s = Shape <start = 0, end = 1> (x)
            c = Concat <axis = 0> (s, m1)
            z = Reshape(x, c)
        }}""")


def run(m: onnx.ModelProto, feeds: dict) -> list[np.ndarray]:
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, feeds)


def first_part(m: onnx.ModelProto, feeds: dict) -> np.ndarray:
    """The value of the Concat's first input, by onnx's reference evaluator."""
    concat = next(n for n in m.graph.node if n.op_type == "Concat")
    probe = onnx.ModelProto()
    probe.CopyFrom(m)
    probe.graph.output.append(onnx.ValueInfoProto(name=concat.input[0]))
    return ReferenceEvaluator(probe).run([concat.input[0]], feeds)[0]


@pytest.mark.parametrize("rid", sorted(SPELLINGS))
def test_an_empty_part_adds_nothing_to_a_shape_value(rid):
    m, feeds = shape_model(), {"x": np.arange(6, dtype=np.float32).reshape(2, 3)}
    r = REWRITES[rid]
    assert r.sites(m) == ["#1:Concat"]
    mutant, _ = r.apply(m)
    onnx.checker.check_model(mutant, full_check=True)
    added = [n.op_type for n in mutant.graph.node][1 : 1 + len(SPELLINGS[rid])]
    assert added == SPELLINGS[rid]
    part = first_part(mutant, feeds)
    assert part.dtype == np.int64 and part.shape == (0,)
    want, got = run(m, feeds)[0], run(mutant, feeds)[0]
    assert got.shape == want.shape == (2, 3) and np.array_equal(got, want)
    inferred = onnx.shape_inference.infer_shapes(mutant, data_prop=True).graph.output[0].type.tensor_type.shape
    assert [d.dim_value for d in inferred.dim] == [2, 3]


def test_the_initializer_takes_the_first_inputs_other_dims_and_element_type():
    m = onnx.parser.parse_model("""
        <ir_version: 8, opset_import: ["" : 13]>
        g (float16[2, 3] a, float16[2, 4] b) => (float16[2, 7] y)
        { y = Concat <axis = -1> (a, b) }""")
    feeds = {"a": np.ones((2, 3), np.float16), "b": np.full((2, 4), 2, np.float16)}
    mutant, _ = REWRITES["concat-empty-initializer"].apply(m)
    onnx.checker.check_model(mutant, full_check=True)
    (empty,) = mutant.graph.initializer
    assert (list(empty.dims), empty.data_type) == ([2, 0], onnx.TensorProto.FLOAT16)
    assert np.array_equal(run(mutant, feeds)[0], run(m, feeds)[0])


def test_where_no_spelling_holds_there_is_no_site():
    assert REWRITES["concat-empty-shape"].sites(shape_model(opset=13)) == []  # Shape's start/end: opset 15
    assert REWRITES["concat-empty-broadcast"].sites(shape_model(opset=13)) == []
    assert REWRITES["concat-empty-initializer"].sites(shape_model(opset=13)) == ["#1:Concat"]
    floats = onnx.parser.parse_model("""
        <ir_version: 8, opset_import: ["" : 17]>
        g (float[N, 3] a, float[N, 4] b) => (float[N, 7] y)
        { y = Concat <axis = 1> (a, b) }""")
    assert REWRITES["concat-empty-shape"].sites(floats) == []  # not an int64 rank-1 value
    assert REWRITES["concat-empty-initializer"].sites(floats) == []  # N is no static dim
