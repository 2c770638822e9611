"""The gaps the schema audit (passcheck.mutations.gaps) found, now built: axis signs of the ops the
hand-written table missed, a Reduce's axes input empty vs omitted, Squeeze's axes listed vs omitted.
Each rewrite finds its sites (and not where the spec's condition fails), its mutant passes the
equivalence gate (real onnxruntime, real shape inference), one site alone passes, its inverse undoes it."""

from __future__ import annotations

import numpy as np
import pytest

from passcheck.cases.builders import tensor
from passcheck.mutations import REWRITES
from passcheck.mutations.gaps import axis_rows, empty_input_rows

from ._models import assert_sites_gate_and_inverse, named


def AXES():
    return named(
        """g (float[N, 3, 4] x, int64[N, 2] i) => (float[N, 3, 4] a, float[N, 3, 4] b, float[N, 2, 5] c,
        float[N, 3, 4] d) {
        a = LayerNormalization<axis = -1>(x, s4, b4)
        q = QuantizeLinear<axis = 1>(x, sc3, zp3)
        b = DequantizeLinear<axis = 1>(q, sc3, zp3)
        c = OneHot<axis = -1>(i, depth, vals)
        ax = Constant<value = int64 {1}>()
        d = CumSum(x, ax)
    }""",
        opset=17,
        initializers=[
            tensor("s4", np.array([1.0, 2.0, 0.5, -1.0], np.float32)),
            tensor("b4", np.array([0.1, 0.2, 0.3, 0.4], np.float32)),
            tensor("sc3", np.array([0.05, 0.1, 0.2], np.float32)),
            tensor("zp3", np.array([0, 3, -2], np.int8)),
            tensor("depth", np.array(5, np.int64)),
            tensor("vals", np.array([0.0, 1.0], np.float32)),
        ],
    )


def BODIES():
    return named(
        """g (float[N, 3, 4] x, bool c) => (float[N, 3, 4] y, float[N, 12] f) {
        y = If(c) <then_branch = t () => (float[N, 3, 4] a) { r = Relu(x)  a = Softmax<axis = 1>(r) },
                   else_branch = e () => (float[N, 3, 4] b) { b = LogSoftmax<axis = -1>(x) }>
        f = Flatten<axis = 1>(x)
    }""",
        opset=17,
    )


def CONSTANT_BODIES():
    m = named(
        """g (float[N, 3] x, bool c) => (float[N, 3] y, float[N, 3] z) {
        y = If(c) <then_branch = t () => (float[N, 3] a) { k = Constant<value = float[3] {1, 2, 3}>()  a = Add(x, k) },
                   else_branch = e () => (float[N, 3] b) { k2 = Constant<value_float = 0.5>()  b = Mul(x, k2) }>
        z = local.Twice(x)
    }""",
        opset=17,
    )
    import onnx

    by_ref = onnx.helper.make_node("Constant", [], ["bias"])
    by_ref.attribute.append(onnx.AttributeProto(name="value_float", type=onnx.AttributeProto.FLOAT, ref_attr_name="b"))
    body = [
        onnx.helper.make_node("Constant", [], ["two"], value=onnx.helper.make_tensor("", 1, [], [2.0])),
        onnx.helper.make_node("Mul", ["u", "two"], ["w"]),
        by_ref,  # the caller's attribute by reference: neither spelling applies
        onnx.helper.make_node("Add", ["w", "bias"], ["v"]),
    ]
    twice = onnx.helper.make_function("local", "Twice", ["u"], ["v"], body, [onnx.helper.make_opsetid("", 17)], ["b"])
    m.functions.append(twice)
    next(n for n in m.graph.node if n.op_type == "Twice").attribute.append(onnx.helper.make_attribute("b", 0.25))
    m.opset_import.append(onnx.helper.make_opsetid("local", 1))
    return m


def REDUCES():
    return named(
        """g (float[N, 3, 4] x) => (float[1, 1, 1] a, float[N, 3, 4] b, float[N, 4] c, float[1, 1, 1] d) {
        a = ReduceSum(x)
        b = ReduceMax<noop_with_empty_axes = 1>(x)
        c = ReduceMean<keepdims = 0>(x, ax1)
        d = ReduceL2(x, none)
    }""",
        opset=18,
        initializers=[tensor("ax1", np.array([1], np.int64)), tensor("none", np.zeros((0,), np.int64))],
    )


def SQUEEZES():
    return named(
        """g (float[N, 1] z) => (float[3, 4] a, float[3] b, float[N] c, float[1, 3] e) {
        x = Constant<value = float[1, 3, 1, 4] {0,1,2,3,4,5,6,7,8,9,10,11}>()
        a = Squeeze(x)
        y = Constant<value = float[1, 3] {1, 2, 3}>()
        b = Squeeze(y, ax0)
        c = Squeeze(z, axm1)
        w = Constant<value = float[1, 1, 3] {4, 5, 6}>()
        e = Squeeze(w, ax0)
    }""",
        opset=13,
        initializers=[tensor("ax0", np.array([0], np.int64)), tensor("axm1", np.array([-1], np.int64))],
    )


def SQUEEZES_11():
    return named(
        """g (float[1, 3, 1] x) => (float[3] a, float[3] b) {
        a = Squeeze(x)
        b = Squeeze<axes = [-1, 0]>(x)
    }""",
        opset=11,
    )


CASES = [
    ("negative-axes", AXES, ["n1", "n2"]),  # n0, n3 are already negative; OneHot counts the output rank
    ("positive-axes", AXES, ["n0", "n3"]),
    ("axes-input-negative", AXES, ["n5"]),  # CumSum's 0-D axis input
    ("negative-axes", BODIES, ["n1", "a"]),  # a body node's site is its output's name
    ("positive-axes", BODIES, ["b"]),
    ("constant-typed-attr", CONSTANT_BODIES, ["k", "Twice/two"]),  # body nodes by output; a function's: NAME/
    ("constant-value-tensor", CONSTANT_BODIES, ["k2"]),
    ("inferred-value-info", BODIES, ["r"]),  # the body value r; f and the branch outputs are declared
    ("reduce-axes-empty", REDUCES, ["n0", "n1"]),  # n2 has axes; n3 already reads an empty tensor
    ("reduce-axes-empty-omitted", REDUCES, ["n3"]),
    ("squeeze-axes-explicit", SQUEEZES, ["n1"]),  # n3 and n6 list axes; n4's input has a symbolic dim
    ("squeeze-axes-omitted", SQUEEZES, ["n3"]),  # n6 leaves a size-1 dim; n4's input has a symbolic dim
    ("squeeze-axes-explicit", SQUEEZES_11, ["n0"]),
    ("squeeze-axes-omitted", SQUEEZES_11, ["n1"]),  # [-1, 0] are the two size-1 dims of a rank-3 input
]


@pytest.mark.parametrize(("rid", "build", "sites"), CASES, ids=[f"{r}-{b.__name__}" for r, b, _s in CASES])
def test_rewrite_finds_its_sites_and_passes_the_gate(rid, build, sites):
    assert_sites_gate_and_inverse(rid, build(), sites)


def test_body_value_info_goes_into_the_body_and_back_out():
    filled, applied = REWRITES["inferred-value-info"].apply(BODIES())
    then = next(a.g for a in filled.graph.node[0].attribute if a.name == "then_branch")
    assert list(applied.nodes) == ["r"] and [v.name for v in then.value_info] == ["r"]
    assert not filled.graph.value_info
    stripped, again = REWRITES["no-value-info"].apply(filled)
    assert list(again.nodes) == ["r"]
    assert not next(a.g for a in stripped.graph.node[0].attribute if a.name == "then_branch").value_info


def test_the_empty_axes_spelling_is_an_empty_int64_tensor_and_goes_again():
    """reduce-axes-empty writes a [0]-shaped int64 initializer; the inverse leaves neither it nor the slot."""
    from onnx import numpy_helper

    mutant, _ = REWRITES["reduce-axes-empty"].apply(REDUCES())
    inits = {t.name: numpy_helper.to_array(t) for t in mutant.graph.initializer}
    axes = inits[mutant.graph.node[0].input[1]]
    assert axes.shape == (0,) and axes.dtype == np.int64
    back, _ = REWRITES["reduce-axes-empty-omitted"].apply(mutant)
    assert [len(n.input) for n in back.graph.node] == [1, 1, 2, 1]
    assert {t.name for t in back.graph.initializer} == {"ax1"}


def test_every_schema_axis_parameter_has_a_sign_rewrite_or_a_reason():
    """The audit walks every default-domain schema: an axis attribute or input that accepts negative
    values is known to a sign rewrite or listed with the reason it is left out."""
    open_gaps = [g.where for g in axis_rows() if g.status == "gap"]
    assert open_gaps == []
    assert any(g.where == "LayerNormalization.axis" and g.status == "rewrite" for g in axis_rows())


def test_every_explicitly_empty_input_has_a_rewrite():
    rows = empty_input_rows()
    assert {g.where for g in rows} >= {"ReduceSum.axes", "ReduceMean.axes"}
    assert [g.where for g in rows if g.status == "gap"] == []
