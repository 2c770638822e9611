"""onnx shape inference's four modes (:mod:`passcheck.passes.onnx_shape_inference`), with real onnx: data
propagation on where the id says so (a Reshape to a computed shape gets static dims), strict mode on where the id
says so (a declared output contradicting inference is declined), and the strict data-propagation mode having both,
the mode in which onnx 1.16 / 1.17 decline a Concat with an empty first part (docs/recall.md R21)."""

from __future__ import annotations

import onnx
import onnx.parser
import pytest

from passcheck.passes import get_pass
from passcheck.passes._base import PassDeclined

RESHAPE = """
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2, 3] x) => (float[p, q] z)
    <int64[1] m1 = {-1}>
    {
        s = Shape <start = 0, end = 1> (x)
        c = Concat <axis = 0> (s, m1)
        z = Reshape(x, c)
    }"""
#: Declares ``y`` rank 3 where Relu of a rank-2 input is rank 2: strict mode raises, the lenient modes keep going.
CONTRADICTED = """
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[2, 3] x) => (float[a, b, c] y)
    { y = Relu(x) }"""
MODES = {  # id: (data propagation, strict)
    "onnx:infer-shapes": (False, False),
    "onnx:infer-shapes-strict": (False, True),
    "onnx:infer-shapes-data-prop": (True, False),
    "onnx:infer-shapes-data-prop-strict": (True, True),
}


@pytest.mark.parametrize("pass_id", sorted(MODES))
def test_each_mode_propagates_data_and_raises_as_its_id_says(pass_id, tmp_path):
    data_prop, strict = MODES[pass_id]
    adapter = get_pass(pass_id)
    out = adapter.apply(onnx.parser.parse_model(RESHAPE), tmp_path)
    dims = [d.dim_value if d.HasField("dim_value") else None for d in out.graph.output[0].type.tensor_type.shape.dim]
    assert dims == ([2, 3] if data_prop else [None, None])
    contradicted = onnx.parser.parse_model(CONTRADICTED)
    if strict:
        with pytest.raises(PassDeclined):
            adapter.apply(contradicted, tmp_path)
    else:
        adapter.apply(contradicted, tmp_path)
