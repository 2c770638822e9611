"""float32 graph → computed in float64 with Casts at the boundary (issue 15): a QuickGELU chain."""

from __future__ import annotations

import numpy as np
import onnx

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES, verify_equivalent

from ._models import W, feeds, named

QUICK_GELU = """quickgelu (float[N, 8] x) => (float[N, 8] y, int64[N] i) {
    k = Constant<value_float = 1.702>()
    s = Mul(x, k)
    g = Sigmoid(s)
    m = Mul(x, g)
    y = Add(m, b)
    i = ArgMax<axis = 1, keepdims = 0>(y)
}"""


def test_quickgelu_chain_in_float64_passes_the_gate():
    m = named(QUICK_GELU, opset=13, initializers=[tensor("b", np.linspace(-1, 1, 8, dtype=np.float32))])
    mutant, applied = REWRITES["float64-compute"].apply(m)
    assert list(applied.nodes) == ["quickgelu"]
    verify_equivalent(m, mutant, feeds(m), "float64-compute")
    g = mutant.graph
    assert [(n.op_type, n.input[0], n.output[0]) for n in (g.node[0], g.node[-1])] == [
        ("Cast", "x", "x_f64"),
        ("Cast", "y_f64", "y"),
    ]
    assert g.initializer[0].data_type == onnx.TensorProto.DOUBLE
    assert g.node[1].attribute[0].name == "value" and g.node[1].attribute[0].t.data_type == onnx.TensorProto.DOUBLE
    argmax = next(n for n in g.node if n.op_type == "ArgMax")
    assert argmax.input[0] == "y_f64"  # the int64 output is computed from the float64 value
    inferred = onnx.shape_inference.infer_shapes(mutant, strict_mode=True)
    types = {v.name: v.type.tensor_type.elem_type for v in inferred.graph.value_info}
    assert types["s"] == types["g"] == types["m"] == onnx.TensorProto.DOUBLE


def test_not_where_onnxruntime_has_no_float64_kernel_or_a_site_is_not_chosen():
    conv = named("""g (float[N, 3, 5, 5] x) => (float[N, 2, 3, 3] y) { y = Conv(x, w) }""", opset=13, initializers=[W])
    assert REWRITES["float64-compute"].apply(conv) is None
    m = named(QUICK_GELU, opset=13, initializers=[tensor("b", np.zeros(8, np.float32))])
    assert REWRITES["float64-compute"].edit(m, frozenset({"other"})) == []


def test_dtype_carrying_attributes_follow_and_float_only_inputs_block():
    # ConstantOfShape's value tensor sets the output type: it becomes float64 too
    m = named(
        """g (float[N, 3] x) => (float[N, 3] y) {
        s = Shape(x)
        y = ConstantOfShape<value = float[1] {1.0}>(s)
    }""",
        opset=13,
    )
    mutant, _ = REWRITES["float64-compute"].apply(m)
    verify_equivalent(m, mutant, feeds(m), "float64-compute")
    assert (
        next(n for n in mutant.graph.node if n.op_type == "ConstantOfShape").attribute[0].t.data_type
        == onnx.TensorProto.DOUBLE
    )
    q = named(
        """g (float[4] x) => (uint8[4] y) {
        sc = Constant<value = float {0.5}>()
        y = QuantizeLinear(x, sc)
    }""",
        opset=13,
    )  # y_scale must be tensor(float) at opset 13: no float64 spelling
    assert REWRITES["float64-compute"].apply(q) is None
