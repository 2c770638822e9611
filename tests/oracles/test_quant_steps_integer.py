"""M238: an integer output a QuantizeLinear writes is judged by the steps the roundings before it allow.

Operators.md QuantizeLinear: ``y = saturate(round(x / y_scale) + y_zero_point)``; ``x`` moved by at most ``a`` (the
module's bound, :mod:`passcheck.oracles.quant_steps`) moves ``y`` by at most ``floor(a / y_scale) + 1``. The float
outputs already had that allowance; a uint8 graph output was compared exactly, so a quantizer rounding the
activations it may round (round 14g's hunt: ``quantize_static`` on a Where fed through layout ops, one element of
16 one step apart) was a ``wrong-result``. Real onnxruntime quantization on the hunt's form.
Planted break: ``_within_steps`` returning False fails the second test.
"""

from __future__ import annotations

import numpy as np
import onnx
import onnx.parser
from onnx import helper, numpy_helper

import passcheck
from passcheck.engine import feeds_for
from passcheck.oracles import quant_steps
from passcheck.passes.ort_quantize import OrtQuantizeAdapter
from passcheck.runtime import default_bindings
from tests.passes._helpers import cell_of

#: The hunt's form (`hunt/neutral-shape-ops-ort-quant-quantize-static-wrong-result-d76cc2e6`): the Where's data
#: through Transpose / Reshape / Slice / Expand / Concat, each of which quantize_static wraps in Q/DQ.
FORM = """<ir_version: 8, opset_import: ["" : 17]>
g (float[N,8] x, float[N,8] xd) => (uint8[N,8] yq)
<float zero = {0.0}, float fill = {0.5}, float sy = {0.05}, uint8 zy = {128}, int64[2] xd_shape = {0, 0},
 int64[1] xd_starts = {0}, int64[1] xd_ends = {9223372036854775807}, int64[1] xd_axes = {0}, int64[2] xd_ones = {1, 1}>
{
  xd_transpose = Transpose <perm = [0, 1]> (xd)
  xd_reshape = Reshape (xd_transpose, xd_shape)
  xd_slice = Slice (xd_reshape, xd_starts, xd_ends, xd_axes)
  xd_expand = Expand (xd_slice, xd_ones)
  xd_concat = Concat <axis = 0> (xd_expand)
  g = Greater (x, zero)
  c = Where (g, xd_concat, fill)
  yq = QuantizeLinear (c, sy, zy)
}"""
CASE = "hunt/neutral-shape-ops-ort-quant-quantize-static-wrong-result-d76cc2e6"


def _chain(first_scale):
    """x → (Q, DQ at ``first_scale``, or nothing) → QuantizeLinear(0.05, 128) → yq."""
    pre = (
        "q1 = QuantizeLinear (x, s1, z1)\n d1 = DequantizeLinear (q1, s1, z1)\n"
        if first_scale
        else "d1 = Identity (x)\n"
    )
    inits = f"float s1 = {{{first_scale or 1.0}}}, uint8 z1 = {{128}}, float sy = {{0.05}}, uint8 zy = {{128}}"
    return onnx.parser.parse_model(
        f'<ir_version: 8, opset_import: ["" : 17]> g (float[4] x) => (uint8[4] yq) <{inits}> '
        f"{{ {pre} yq = QuantizeLinear (d1, sy, zy) }}"
    )


def test_the_steps_are_the_bound_at_the_quantizers_input_over_its_scale():
    assert quant_steps.integer_steps(_chain(0.1)) == {"yq": 2}  # a = 0.05: floor(1) + 1 (a tie either way)
    assert quant_steps.integer_steps(_chain(0.1), share=1.0) == {"yq": 3}
    assert quant_steps.integer_steps(_chain(None)) == {"yq": 0}  # exact input: no step allowed


class _ZeroPointPlusFive(OrtQuantizeAdapter):
    """quantize_static, then the output QuantizeLinear's zero point moved by 5 (five output steps)."""

    def __init__(self):
        super().__init__("quantize-static")
        self.id = "ort-quant:broken-zero-point"

    def apply(self, model, workdir):
        out = super().apply(model, workdir)
        inits = {t.name: t for t in out.graph.initializer}
        (q,) = [n for n in out.graph.node if n.op_type == "QuantizeLinear" and n.output[0] == "yq"]
        z = inits[q.input[2]]
        z.CopyFrom(numpy_helper.from_array((numpy_helper.to_array(z) + 5).astype(np.uint8), z.name))
        return out


def test_a_quantizers_one_step_on_a_quantized_output_is_no_finding_and_five_steps_are():
    model = onnx.parser.parse_model(FORM)
    feeds = feeds_for(model, CASE, default_bindings(model))
    report = passcheck.check_model(model, ["ort-quant:quantize-static"], feeds=feeds, name="m238")
    (cell,) = [c for c in report.cells if c.pass_id == "ort-quant:quantize-static"]
    assert not [f for f in cell.findings if f.oracle == "numeric"], cell.findings
    kinds = {(f.oracle, f.kind) for f in cell_of(_ZeroPointPlusFive(), model, "m238/zp").findings}
    assert ("numeric", "wrong-result") in kinds, kinds


def test_no_quantizelinear_writer_means_no_integer_allowance():
    g = helper.make_graph(
        [helper.make_node("Cast", ["x"], ["y"], to=onnx.TensorProto.UINT8)],
        "g",
        [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", onnx.TensorProto.UINT8, [2])],
    )
    assert quant_steps.integer_steps(helper.make_model(g)) == {}
