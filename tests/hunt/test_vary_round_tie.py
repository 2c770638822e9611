"""value-round-tie (passcheck.hunt.vary_scale): a Resize-18+ ``sizes`` vector moved so that the
``keep_aspect_ratio_policy`` scale puts another axis's exact output size at a half, which Operators.md's
``round_int`` rounds up; judged with onnx's reference evaluator, onnx shape inference and onnxruntime."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import onnx
import onnx.numpy_helper
import onnx.parser
import pytest
from onnx.reference import ReferenceEvaluator

from passcheck.hunt import variation, vary_scale

BASE = """<ir_version: 8, opset_import: ["" : 18]>
g (float[N,2,3,3] x) => (float[N,2,6,6] y)
<int64[2] sz = {6,6}>
{ y = Resize <mode = "nearest", axes = [2, 3]> (x, "", "", sz) }"""


def _spec_dims(dims, sizes, policy):
    """Operators.md Resize-18: scale = Min (Max) of sizes[i] / in_size[d]; round_int rounds halves up."""
    ratios = [Fraction(s, d) for s, d in zip(sizes, dims, strict=True)]
    scale = min(ratios) if policy == "not_larger" else max(ratios)
    return [math.floor(scale * d + Fraction(1, 2)) for d in dims]


@pytest.mark.parametrize("policy", ["not_larger", "not_smaller"])
@pytest.mark.parametrize("dims", [(14, 7), (4, 6), (22, 11), (3, 3), (5, 7)])
def test_the_sizes_govern_and_make_a_half(dims, policy):
    got = vary_scale.tie(dims, [6, 6], policy)
    if dims in ((3, 3), (5, 7)):  # no size makes s / d_j * d_i a half: no odd-free ratio between the dims
        assert got is None
        return
    sizes, below = got
    ratios = [Fraction(s, d) for s, d in zip(sizes, dims, strict=True)]
    scale = min(ratios) if policy == "not_larger" else max(ratios)
    assert any((scale * d).denominator == 2 for d in dims)  # a tie the spec rounds up
    assert below == (dims in ((14, 7), (22, 11)))  # a float32 product below the half where one exists
    assert vary_scale._below_dims() == (14, 7)


def test_the_neighbour_moves_sizes_policy_and_dims_and_the_spec_answer_is_the_reference_one():
    base = onnx.parser.parse_model(BASE)
    assert "vary:value-round-tie@sz" in variation.offered(base)
    out, _labels = variation.build(base, "vary:value-round-tie@sz")
    node = out.graph.node[0]
    assert onnx.helper.get_attribute_value(next(a for a in node.attribute if a.name == "keep_aspect_ratio_policy")) == (
        b"not_larger"
    )
    dims = [d.dim_value for d in out.graph.input[0].type.tensor_type.shape.dim[2:]]
    sizes = onnx.numpy_helper.to_array(out.graph.initializer[0]).tolist()
    assert dims == list(vary_scale._below_dims())
    want = _spec_dims(dims, sizes, "not_larger")
    assert any((Fraction(sizes[0], dims[0]) * d).denominator == 2 for d in dims)
    # the output's dims are left unstated (the question the neighbour asks)
    assert all(not d.HasField("dim_value") for d in out.graph.output[0].type.tensor_type.shape.dim)
    x = np.ones((1, 2, *dims), np.float32)
    assert list(ReferenceEvaluator(out).run(None, {"x": x})[0].shape[2:]) == want
    inferred = onnx.shape_inference.infer_shapes(out, strict_mode=True).graph.output[0].type.tensor_type.shape
    assert [d.dim_value for d in inferred.dim[2:]] == want  # onnx >= 1.22 computes the exact ratio


def test_no_neighbour_without_a_sizes_reader_or_when_already_tied():
    text = BASE.replace('"", "", sz', '"", sc').replace("int64[2] sz = {6,6}", "float[4] sc = {1.,1.,2.,2.}")
    scales = onnx.parser.parse_model(text)
    assert not any("round-tie" in o for o in variation.offered(scales))
    tied = onnx.parser.parse_model(
        BASE.replace("3,3] x", "14,7] x")
        .replace("{6,6}", "{31,16}")
        .replace("axes = [2, 3]", 'axes = [2, 3], keep_aspect_ratio_policy = "not_larger"')
    )
    assert not any("round-tie" in o for o in variation.offered(tied))
