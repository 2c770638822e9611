"""Session 23's gaps, built: axis signs inside model-local function bodies (ranks from the call sites)
and type / dimension denotations. Each rewrite finds its sites (and not where its condition fails), its
mutant passes the equivalence gate (real onnxruntime, real shape inference), one site alone passes, its
inverse undoes it; what the rewrite writes is what the spec says."""

from __future__ import annotations

import onnx
import onnx.inliner
import onnxruntime as ort

from passcheck.cases.builders import parse
from passcheck.mutations import REWRITES
from passcheck.mutations.gaps import IR_ROWS

from ._models import assert_sites_gate_and_inverse, feeds, named

_FUNCTIONS = """
<domain: "local", opset_import: ["" : 18]>
soft (x) => (y) {
    t = Softmax<axis = 1>(x)
    y = Concat<axis = 0>(t, x)
}
<domain: "local", opset_import: ["" : 18]>
poly (x) => (y) {
    y = Softmax<axis = 0>(x)
}
<domain: "local", opset_import: ["" : 18]>
byref <ax> (x) => (y) {
    y = Softmax<axis: int = @ax>(x)
}
<domain: "local", opset_import: ["" : 18]>
neg (x) => (y) {
    y = ArgMax<axis = -1, keepdims = 0>(x)
}
<domain: "local", opset_import: ["" : 18]>
twice <ax> (x) => (y) {
    t = Softmax<axis: int = @ax>(x)
    y = LogSoftmax<axis: int = @ax>(t)
}
"""


def FUNCTIONS(negative: bool = False):
    """``soft`` (two literal axes, called twice with float[2, 3]), ``poly`` (called with rank 2 and rank
    3: left alone), ``byref`` (axis by reference: the call's ``ax = 1`` flips), ``neg`` (already negative),
    ``twice`` (one referenced name read by two axes: left alone)."""
    text = """g (float[2, 3] x, float[2, 3, 4] z) => (float[4, 3] a, float[4, 3] b, float[2, 3] c, float[2, 3, 4] d,
        float[2, 3] e, int64[2, 3] f, float[2, 3] h) {
        a = local.soft(x)
        b = local.soft(x)
        c = local.poly(x)
        d = local.poly(z)
        e = local.byref<ax = 1>(x)
        f = local.neg(z)
        h = local.twice<ax = 0>(x)
    }""" + _FUNCTIONS.replace("Softmax<axis = 1>", "Softmax<axis = -1>" if negative else "Softmax<axis = 1>")
    m = parse(text, opset=18, extra_opsets={"local": 1})
    for i, n in enumerate(m.graph.node):
        n.name = f"n{i}"
    return m


def _ort(model):
    s = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return [s.run(None, f) for f in feeds(model)]


def test_function_negative_axes_finds_its_sites_and_passes_the_gate():
    assert_sites_gate_and_inverse("function-negative-axes", FUNCTIONS(), ["soft/t", "soft/y", "byref/y"])


def test_function_positive_axes_finds_its_sites_and_passes_the_gate():
    assert_sites_gate_and_inverse("function-positive-axes", FUNCTIONS(negative=True), ["soft/t", "neg/y"])


def test_function_axes_are_counted_from_the_back_of_the_callers_rank():
    """soft's axes become 1 - 2 and 0 - 2 and byref's call passes 1 - 2; the mutant inlined (onnx.inliner)
    carries them into the main graph and computes what the original computes in onnxruntime."""
    m = FUNCTIONS()
    mutant, _ = REWRITES["function-negative-axes"].apply(m)
    soft = next(f for f in mutant.functions if f.name == "soft")
    assert [n.attribute[0].i for n in soft.node] == [-1, -2]
    poly = next(f for f in mutant.functions if f.name == "poly")
    assert poly.node[0].attribute[0].i == 0
    inlined = onnx.inliner.inline_local_functions(mutant)
    axes = [(n.op_type, a.i) for n in inlined.graph.node for a in n.attribute if a.name == "axis"]
    soft, poly = [("Softmax", -1), ("Concat", -2)] * 2, [("Softmax", 0)] * 2
    assert [a.i for n in mutant.graph.node if n.op_type == "byref" for a in n.attribute] == [-1]
    twice = [("Softmax", 0), ("LogSoftmax", 0)]
    assert sorted(axes) == sorted([*soft, *poly, ("Softmax", -1), ("ArgMax", -1), *twice])  # byref flipped
    for got, want in zip(_ort(mutant), _ort(m), strict=True):
        for g, w in zip(got, want, strict=True):
            assert (g == w).all()


DENOTED = lambda: named(  # noqa: E731 - a builder, as in _models
    """g (float[N, 3] x, int64 k) => (float[N, 3] y, float[N] z) {
    a = Relu(x)
    y = Softmax<axis = -1>(a)
    z = ReduceSum<keepdims = 0>(a, one)
    }""",
    opset=18,
    initializers=[onnx.helper.make_tensor("one", onnx.TensorProto.INT64, [1], [1])],
)


def _with_value_info(m):
    m.graph.value_info.append(onnx.helper.make_tensor_value_info("a", onnx.TensorProto.FLOAT, ["N", None]))
    return m


def test_add_denotations_finds_its_sites_and_passes_the_gate():
    assert_sites_gate_and_inverse("add-denotations", _with_value_info(DENOTED()), ["x", "k", "y", "z", "a"])


def test_denotations_are_the_spec_labels_on_every_type_and_dim_and_strip_clears_them():
    """TENSOR on each tensor type, DATA_FEATURE on each dim (the anonymous dim of ``a`` keeps no value or
    name); the scalar ``k`` has no dims; strip-denotations clears every one and gives back the original."""
    original = _with_value_info(DENOTED())
    mutant, _ = REWRITES["add-denotations"].apply(original)
    g = mutant.graph
    for v in [*g.input, *g.output, *g.value_info]:
        assert v.type.denotation == "TENSOR"
        assert [d.denotation for d in v.type.tensor_type.shape.dim] == ["DATA_FEATURE"] * len(
            v.type.tensor_type.shape.dim
        )
    anon = g.value_info[0].type.tensor_type.shape.dim[1]
    assert anon.WhichOneof("value") is None
    onnx.checker.check_model(mutant, full_check=True)
    back, applied = REWRITES["strip-denotations"].apply(mutant)
    assert len(applied.nodes) == 5
    assert back == original  # the labels were all that changed


def test_session_23_gaps_are_closed():
    assert not {g.family for g in IR_ROWS} & {"axis-sign-in-function-bodies", "type-denotation"}


def test_the_hunt_reaches_main_graph_axes_through_a_function_body():
    """A model without functions has no function-negative-axes site; enumerate_forms still offers it at depth
    2 after nested-local-function, node-as-local-function and region-as-local-function (Rewrite.after), and the
    pairs pass the gate."""
    import random

    from passcheck.mutations import verify_equivalent
    from passcheck.mutations.forms import build, enumerate_forms

    m = named(
        """g (float[2, 3] x) => (float[3, 2] y, float[3, 2] z) {
        a = LeakyRelu<alpha = 0.25>(x)
        b = Transpose<perm = [1, 0]>(a)
        c = Softmax<axis = 0>(b)
        y = Neg(c)
        z = Abs(c)
    }""",
        opset=17,
    )
    assert REWRITES["function-negative-axes"].apply(m) is None
    forms = enumerate_forms(m, random.Random(0), max_pairs=10**6)
    opened = sorted(f for f in forms if f.endswith("+function-negative-axes"))
    assert opened == [f"{a}-local-function+function-negative-axes" for a in ("nested", "node-as", "region-as")]
    mutant, changed = build(m, opened[2])
    body = mutant.functions[0]
    assert changed[-1].startswith(f"{body.name}/")
    assert [a.i for n in body.node if n.op_type == "Softmax" for a in n.attribute] == [-2]
    verify_equivalent(m, mutant, feeds(m), opened[2])
    by_ref, _ = build(m, opened[1])  # node-as-local-function passes the axis from the call
    assert [a.i for n in by_ref.graph.node if n.op_type.startswith("Softmax") for a in n.attribute] == [-2]
    verify_equivalent(m, by_ref, feeds(m), opened[1])


def BODIES(explicit: bool = False):
    """An If whose branches hold a LeakyRelu and a Softmax, and a function ``lr`` holding a LeakyRelu whose
    alpha and an ArgMax whose select_last_index are the caller's (``ref_attr_name``; the ArgMax one reads as the
    default 0 with no value), and a Softmax; written with the defaults omitted, or (explicit) with alpha 0.01,
    axis -1 / 0 and keepdims 1 written where a literal attribute may stand."""
    lit = "<alpha = 0.01>" if explicit else ""
    ax = "<axis = -1>" if explicit else ""
    am = "axis = 0, keepdims = 1, " if explicit else ""
    text = f"""g (float[2, 3] x, bool c) => (float[2, 3] y, float[2, 3] z, int64[1, 3] q) {{
        y = If(c) <then_branch = t () => (float[2, 3] o1) {{ o1 = LeakyRelu{lit}(x) }},
                   else_branch = e () => (float[2, 3] o2) {{ o2 = Softmax{ax}(x) }}>
        z, q = local.lr<a = 0.01, s = 1>(x)
    }}
    <domain: "local", opset_import: ["" : 13]>
    lr <a, s> (u) => (v, k) {{
        w = LeakyRelu<alpha: float = @a>(u)
        v = Softmax{ax}(w)
        k = ArgMax<{am}select_last_index: int = @s>(w)
    }}
    """
    m = parse(text, opset=13, extra_opsets={"local": 1})
    for i, n in enumerate(m.graph.node):
        n.name = f"n{i}"
    return m


def test_body_explicit_defaults_finds_its_sites_and_passes_the_gate():
    assert_sites_gate_and_inverse("body-explicit-defaults", BODIES(), ["o1", "o2", "lr/v", "lr/k"])


def test_body_omitted_defaults_keeps_attributes_given_by_reference():
    """The literal defaults go; lr's alpha and select_last_index (the caller's, by reference) stay, though the
    second reads as the default 0; the gate holds."""
    assert_sites_gate_and_inverse("body-omitted-defaults", BODIES(explicit=True), ["o1", "o2", "lr/v", "lr/k"])
    mutant, _ = REWRITES["body-omitted-defaults"].apply(BODIES(explicit=True))
    lr = mutant.functions[0]
    assert [(a.name, a.ref_attr_name) for a in lr.node[0].attribute] == [("alpha", "a")]
    assert not lr.node[1].attribute
    assert [(a.name, a.ref_attr_name) for a in lr.node[2].attribute] == [("select_last_index", "s")]


def test_the_hunt_reaches_body_defaults_through_an_if_or_a_function():
    """A model whose bodies hold nothing has no body-explicit-defaults site; enumerate_forms offers it after the
    rewrites that move nodes into an If branch or a function body (Rewrite.after), and those pairs pass the gate."""
    import random

    from passcheck.mutations import verify_equivalent
    from passcheck.mutations.forms import build, enumerate_forms

    m = named(
        """g (float[2, 3] x) => (float[2, 3] y) {
        a = LeakyRelu(x)
        y = Softmax(a)
    }""",
        opset=17,
    )
    assert REWRITES["body-explicit-defaults"].apply(m) is None
    opened = [f for f in enumerate_forms(m, random.Random(0)) if f.endswith("+body-explicit-defaults")]
    assert sorted(f.split("+")[0] for f in opened) == sorted(
        ["node-in-if-opaque", "chain-in-if-opaque", "node-as-local-function", "region-as-local-function"]
    )
    for form in opened:
        mutant, _ = build(m, form)
        verify_equivalent(m, mutant, feeds(m), form)
