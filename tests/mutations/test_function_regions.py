"""region-as-local-function and nested-local-function with the real tools: each mutant passes
``onnx.checker.check_model(full_check=True)``, runs under onnxruntime with outputs equal bit for bit
to the original's, and ``onnx.inliner.inline_local_functions`` gives back the original's nodes; the
sites on a Gelu chain; a pass that wires a function's output wrong is a finding."""

from __future__ import annotations

import numpy as np
import onnx
import onnx.inliner
import onnxruntime as ort
import pytest
from onnx import numpy_helper

from passcheck.errors import PasscheckInternalError
from passcheck.mutations import REWRITES, build_form, verify_equivalent
from passcheck.mutations import function_regions as FR

from ._models import feeds, named, run_planted


def _scalar(name: str, value: float) -> onnx.TensorProto:
    return numpy_helper.from_array(np.array(value, np.float32), name)


def gelu() -> onnx.ModelProto:
    """Gelu written out (Operators.md Gelu-20 body, approximate='none'): 5 nodes n0..n4."""
    return named(
        """g (float[2,3] x) => (float[2,3] y) {
  [n0] a = Div(x, s)
  [n1] b = Erf(a)
  [n2] c = Add(b, one)
  [n3] d = Mul(x, c)
  [n4] y = Mul(d, half)
}""",
        opset=17,
        initializers=[_scalar("s", 1.4142135), _scalar("one", 1.0), _scalar("half", 0.5)],
    )


def attributed() -> onnx.ModelProto:
    """Attributes in the chain (LeakyRelu alpha, Transpose perm, Softmax axis) and a value read twice after it."""
    return named(
        """g (float[2,3] x) => (float[3,2] y, float[3,2] z) {
  [n0] a = LeakyRelu<alpha = 0.25>(x)
  [n1] b = Transpose<perm = [1, 0]>(a)
  [n2] c = Softmax<axis = 0>(b)
  [n3] y = Neg(c)
  [n4] z = Abs(c)
}""",
        opset=17,
    )


def _runs(model: onnx.ModelProto) -> list[list[np.ndarray]]:
    s = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    return [s.run(None, f) for f in feeds(model)]


def _same_bits(a: list[list[np.ndarray]], b: list[list[np.ndarray]]) -> bool:
    return all(
        x.tobytes() == y.tobytes() and x.shape == y.shape
        for ra, rb in zip(a, b, strict=True)
        for x, y in zip(ra, rb, strict=True)
    )


def assert_same_computation(original: onnx.ModelProto, form: str) -> onnx.ModelProto:
    got = build_form(original, form)
    assert got is not None, form
    mutant = got[0]
    onnx.checker.check_model(mutant, full_check=True)
    assert mutant.ir_version >= 8 and mutant.functions
    assert _same_bits(_runs(original), _runs(mutant)), form
    if "-defaults" in form:
        return mutant  # onnx 1.23.2's inliner drops FunctionProto.attribute_proto defaults (the op's own default wins)
    flat = onnx.inliner.inline_local_functions(mutant)
    assert not flat.functions and [n.op_type for n in flat.graph.node] == [n.op_type for n in original.graph.node]
    assert _same_bits(_runs(original), _runs(flat)), form
    return mutant


def test_gelu_chain_sites():
    """Greedy in node order: the first four nodes (Div, Erf, Add, Mul) are one region; the last Mul is left alone."""
    m = gelu()
    assert REWRITES["region-as-local-function"].sites(m) == ["n0>n1>n2>n3"]
    r = REWRITES["region-as-local-function"]
    for label in ("n1>n2", "n2>n3>n4", "n1>n2>n3>n4"):
        assert r.apply(m, [label])[1].nodes == (label,)
    for label in ("n0>n2", "n0", "n0>n1>n2>n3>n4", "n1>n0", "nx>n1"):
        assert r.apply(m, [label]) is None, label  # not adjacent, one node, too long, backwards, unknown


@pytest.mark.parametrize(
    "form",
    [
        "region-as-local-function",
        "region-as-local-function@n1>n2",
        "region-as-local-function@n2>n3>n4",
        "region-as-local-function+nested-local-function",
        "region-as-local-function@n1>n2>n3>n4+nested-local-function",
        "nested-local-function",
        "nested-local-function@n2>n3>n4",
        "node-as-local-function+nested-local-function",
        "node-as-local-function-defaults+nested-local-function",
    ],
)
def test_gelu_forms_compute_the_same(form):
    assert_same_computation(gelu(), form)


@pytest.mark.parametrize(
    "form",
    [
        "region-as-local-function",
        "region-as-local-function+nested-local-function",
        "node-as-local-function+nested-local-function",
        "node-as-local-function-defaults+nested-local-function",
    ],
)
def test_attributed_forms_compute_the_same(form):
    mutant = assert_same_computation(attributed(), form)
    if form.startswith("region"):
        assert REWRITES["region-as-local-function"].sites(attributed()) == ["n0>n1>n2"]  # c has two readers
        assert [n.op_type for n in mutant.graph.node] == ["Region_LeakyRelu_Transpose_Softmax", "Neg", "Abs"]


def test_nested_alone_wraps_the_regions_first():
    """Without model-local functions, nested-local-function is region-as-local-function then nesting: the same model."""
    m = gelu()
    assert REWRITES["nested-local-function"].sites(m) == ["n0>n1>n2>n3"]
    alone = build_form(m, "nested-local-function")[0]
    assert alone == build_form(m, "region-as-local-function+nested-local-function")[0]
    assert [[n.op_type for n in f.node] for f in alone.functions] == [
        ["Region_Div_Erf_Add_Mul_inner", "Add", "Mul"],
        ["Div", "Erf"],
    ]


def test_nested_passes_attributes_by_reference():
    m = build_form(attributed(), "node-as-local-function+nested-local-function")[0]
    outer = next(f for f in m.functions if f.name == "LeakyRelu_fn0")
    inner = next(f for f in m.functions if f.name == "LeakyRelu_fn0_inner")
    assert [n.op_type for n in outer.node] == ["LeakyRelu_fn0_inner"] and list(inner.attribute) == ["alpha"]
    assert [(a.name, a.ref_attr_name) for a in outer.node[0].attribute] == [("alpha", "alpha")]
    d = build_form(attributed(), "node-as-local-function-defaults+nested-local-function")[0]
    inner = next(f for f in d.functions if f.name.endswith("_inner") and f.node[0].op_type == "LeakyRelu")
    assert [a.name for a in inner.attribute_proto] == ["alpha"]


def test_chain_output_read_between_its_nodes_is_left_alone():
    """Split's second output is read by n1, which sits between the chain's nodes n0 and n2."""
    m = named(
        """g (float[4] x) => (float[2] y, float[2] z) {
  [n0] s0, s1 = Split<num_outputs = 2>(x)
  [n1] z = Neg(s1)
  [n2] y = Relu(s0)
}""",
        opset=18,
    )
    assert REWRITES["region-as-local-function"].apply(m) is None
    assert REWRITES["region-as-local-function"].apply(m, ["n0>n2"]) is None
    assert_same_computation(m, "region-as-local-function@n0>n1")


def test_initializer_read_inside_becomes_a_function_input():
    m = build_form(gelu(), "region-as-local-function")[0]
    call = m.graph.node[0]
    assert list(call.input) == ["x", "s", "one"] and list(call.output) == ["d"]
    assert list(m.functions[0].input) == ["x0", "x1", "x2"]


def test_a_wrongly_wired_function_output_fails_the_gate(monkeypatch):
    """A region rewrite that names an inner value as the function's output is rejected by the equivalence gate."""
    real = FR._body

    def miswired(nodes, ins, outs):
        body = real(nodes, ins, outs)
        body[-1].output[0], body[0].output[0] = body[0].output[0], body[-1].output[0]
        return body

    monkeypatch.setattr(FR, "_body", miswired)
    m = gelu()
    mutant = REWRITES["region-as-local-function"].apply(m)[0]
    with pytest.raises(PasscheckInternalError):
        verify_equivalent(m, mutant, feeds(m), "region-as-local-function")


def test_a_pass_wiring_a_function_output_wrong_is_a_finding():
    """A planted pass that makes a model-local function return an inner value: a finding on the region form only."""
    from passcheck.engine import Subject
    from passcheck.runtime import default_bindings

    def miswire(model: onnx.ModelProto) -> onnx.ModelProto:
        for f in model.functions:
            if len(f.node) > 1:
                f.output[0] = f.node[0].output[0]
        return model

    m = gelu()
    region = build_form(m, "region-as-local-function")[0]
    cells = run_planted(
        Subject("gelu", {"common": m, "region": region}, default_bindings(m)), "planted:miswire", miswire
    )
    assert not any(c.findings for c in cells if c.form == "common")
    assert any(c.findings for c in cells if c.form == "region")


def test_the_spelling_models_pass_the_gate():
    """On the spelling models (subgraphs, optional slots, a model-local function, onnx-wheel exports): every form
    that applies passes the equivalence gate, and each rewrite applies somewhere."""
    from . import _spelling_models as S

    applied = set()
    for name, build in S.BUILDERS.items():
        m = build()
        for form in (
            "region-as-local-function",
            "nested-local-function",
            "region-as-local-function+nested-local-function",
        ):
            if (got := build_form(m, form)) is not None:
                verify_equivalent(m, got[0], feeds(m), f"{form} on {name}")
                applied.add(form)
    assert len(applied) == 3


def _ten_nodes() -> onnx.ModelProto:
    """A chain of 10 unary nodes: the greedy regions n0..n3, n4..n7, n8>n9."""
    body = "\n".join(f"  [n{i}] v{i + 1} = {'Neg' if i % 2 else 'Relu'}(v{i})" for i in range(10))
    return named(f"g (float[2,3] v0) => (float[2,3] v10) {{\n{body}\n}}", opset=17)


def test_the_graph_is_read_once_for_all_its_regions(monkeypatch):
    """Wrapping a chain leaves the main graph as it is until every chain is wrapped, so its readers are read once
    per edit, not once per chain (M164, round 12s: per chain it was most of a hunt's pair-form builds); the three
    regions, all at once or named, compute what the chain does (a real onnxruntime run, bit for bit)."""
    m = _ten_nodes()
    reads = []
    real = FR._readers
    monkeypatch.setattr(FR, "_readers", lambda g: reads.append(len(g.node)) or real(g))
    r = REWRITES["region-as-local-function"]
    assert r.sites(m) == ["n0>n1>n2>n3", "n4>n5>n6>n7", "n8>n9"] and reads == [10]
    reads.clear()
    named_three = ["n0>n1", "n2>n3>n4", "n7>n8>n9"]
    picked, applied = r.apply(m, named_three)
    assert applied.nodes == tuple(named_three) and reads == [10]
    onnx.checker.check_model(picked, full_check=True)
    assert [n.op_type for n in picked.graph.node] == [
        "Region_Relu_Neg",
        "Region_Relu_Neg_Relu",
        "Neg",
        "Relu",
        "Region_Neg_Relu_Neg",
    ]
    assert _same_bits(_runs(m), _runs(picked))
    mutant = assert_same_computation(m, "region-as-local-function")
    assert [n.op_type for n in mutant.graph.node] == [
        "Region_Relu_Neg_Relu_Neg",
        "Region_Relu_Neg_Relu_Neg_1",
        "Region_Relu_Neg",
    ]
