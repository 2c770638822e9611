"""Every rewrite at nested sites (``in-body-<ID>``, M461): an If's branches, a function body, a body inside a
function; the forms pass the full checker and onnxruntime gives the original's outputs; the scope's interface is
kept (a rewrite that changes it gets no site); an attribute read by reference stays one; and a planted pass that
handles the main graph right and a body wrong is a finding on the in-body form only."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.mutations import REWRITES, verify_equivalent
from passcheck.mutations._base import Rewrite
from passcheck.mutations.nested_sites import in_body, kind, scopes

from ._models import feeds, run_planted


def _body(p: str) -> list[onnx.NodeProto]:
    return [
        helper.make_node("Transpose", ["x"], [p + "t"], perm=[1, 0], name=p + "tr"),
        helper.make_node("Transpose", [p + "t"], [p + "u"], perm=[1, 0], name=p + "tr2"),
        helper.make_node("Add", [p + "u", "w"], [p + "a"], name=p + "add"),
        helper.make_node("Relu", [p + "a"], [p + "out"], name=p + "relu"),
    ]


def nested(calls: int = 1, ref: bool = False) -> onnx.ModelProto:
    """x: float [2, 3]; y = If(IsNaN(ReduceSum(x))) of two equal branches reading ``x`` and the initializer ``w``
    from the outer scope; z = F(x, w), a function with the same nodes (its Transpose's ``perm`` by reference when
    ``ref``), called ``calls`` times."""
    branch = [
        helper.make_graph(_body(p), p + "g", [], [helper.make_tensor_value_info(p + "out", TensorProto.FLOAT, [2, 3])])
        for p in ("t_", "e_")
    ]
    fbody = _body("f_")
    if ref:
        fbody[0] = helper.make_node("Transpose", ["x"], ["f_t"], name="f_tr")
        fbody[0].attribute.append(helper.make_attribute_ref("perm", onnx.AttributeProto.INTS))
    f = helper.make_function(
        "local", "F", ["x", "w"], ["f_out"], fbody, [helper.make_opsetid("", 17)], attributes=["perm"] if ref else []
    )
    nodes = [
        helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0, name="sum"),
        helper.make_node("IsNaN", ["s"], ["c"], name="isnan"),
        helper.make_node("If", ["c"], ["y"], then_branch=branch[0], else_branch=branch[1], name="if0"),
    ]
    outs = [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 3])]
    for k in range(calls):
        call = helper.make_node("F", ["x", "w"], [f"z{k}"], domain="local", name=f"call{k}")
        if ref:
            call.attribute.append(helper.make_attribute("perm", [1, 0]))
        nodes.append(call)
        outs.append(helper.make_tensor_value_info(f"z{k}", TensorProto.FLOAT, [2, 3]))
    w = numpy_helper.from_array(np.arange(6, dtype=np.float32).reshape(2, 3) - 3, "w")
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])], outs, [w])
    return helper.make_model(
        g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("local", 1)], functions=[f], ir_version=8
    )


def _run(m: onnx.ModelProto, feed) -> list[np.ndarray]:
    return ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)


def test_scopes_and_their_kinds():
    m = nested()
    got = [(key, kind(fi, path)) for key, fi, path in scopes(m)]
    assert got == [("if0.else_branch", "subgraph"), ("if0.then_branch", "subgraph"), ("fn:F", "function")]


@pytest.mark.parametrize("rid", ["commute-operands", "relu-as-max", "chain-in-if-opaque", "add-as-sum"])
def test_a_main_graph_rewrite_applies_in_every_body(rid):
    m = nested()
    plain = REWRITES[rid].apply(m)  # the rewrite itself: main-graph sites only
    assert plain is None or not any("::" in x or x.startswith(("t_", "e_", "f_")) for x in plain[1].nodes)
    mutant, applied = REWRITES["in-body-" + rid].apply(m)
    assert {x.split("::")[0] for x in applied.nodes} == {"if0.then_branch", "if0.else_branch", "fn:F"}
    onnx.checker.check_model(mutant, full_check=True)
    assert mutant.graph.node[2].attribute[0].g.SerializeToString() != m.graph.node[2].attribute[0].g.SerializeToString()
    for feed in feeds(m):
        assert all(np.array_equal(a, b) for a, b in zip(_run(m, feed), _run(mutant, feed), strict=True))
    verify_equivalent(m, mutant, feeds(m), "in-body-" + rid)
    one, single = REWRITES["in-body-" + rid].apply(m, [applied.nodes[-1]])
    assert list(single.nodes) == [applied.nodes[-1]]
    onnx.checker.check_model(one, full_check=True)


def test_a_body_inside_a_function_is_lifted_twice():
    m = nested()
    inner = REWRITES["chain-in-if-const"].apply(m)  # nothing: no main-graph chain reads only its predecessor
    mf, _ = REWRITES["in-body-node-in-if-const"].apply(m, ["fn:F::f_add"])  # an If inside the function body
    got = REWRITES["in-body-commute-operands"].apply(mf)
    assert inner is None and got is not None
    assert any(x.startswith("fn:F/") and "_branch::" in x for x in got[1].nodes), got[1].nodes
    onnx.checker.check_model(got[0], full_check=True)
    for feed in feeds(m):
        assert all(np.array_equal(a, b) for a, b in zip(_run(m, feed), _run(got[0], feed), strict=True))


def test_an_attribute_read_by_reference_stays_one():
    m = nested(ref=True)
    mutant, applied = REWRITES["in-body-commute-operands"].apply(m, ["fn:F::f_add"])
    tr = mutant.functions[0].node[0]
    assert [a.ref_attr_name for a in tr.attribute] == ["perm"] and list(applied.nodes) == ["fn:F::f_add"]
    onnx.checker.check_model(mutant, full_check=True)
    twice = nested(calls=2, ref=True)  # two callers may pass two values: no literal may stand for them
    assert not any(x.startswith("fn:") for x in REWRITES["in-body-commute-operands"].sites(twice))


def test_a_reference_is_not_moved_to_a_new_node_of_the_same_op():
    """in-body-transpose-identity puts ``f_t = Transpose<perm=[0, 1]>(f_t_pre)`` behind the body's
    ``Transpose<perm=@perm>``, which now writes ``f_t_pre``: the reference must not follow the name ``f_t`` onto the
    new node (its value differs), or the body transposes twice (round 21l: fusion-sdpa/bare's local Transpose)."""
    m = nested(ref=True)
    mutant, applied = REWRITES["in-body-transpose-identity"].apply(m)
    assert any(x.startswith("fn:F::") for x in applied.nodes), applied.nodes
    perms = {n.output[0]: [(a.ints, a.ref_attr_name) for a in n.attribute] for n in mutant.functions[0].node}
    assert perms["f_t"] == [([0, 1], "")], perms
    onnx.checker.check_model(mutant, full_check=True)
    for feed in feeds(m):
        assert all(np.array_equal(a, b) for a, b in zip(_run(m, feed), _run(mutant, feed), strict=True))
    verify_equivalent(m, mutant, feeds(m), "in-body-transpose-identity")


def test_a_rewrite_changing_the_interface_or_the_model_gets_no_site():
    def rename_input(model, only=None):
        model.graph.input[0].name = "renamed"
        return ["i"]

    def new_name(model, only=None):  # writes a value under a name the main graph already has ("s")
        model.graph.node.append(helper.make_node("Identity", [model.graph.node[0].output[0]], ["s"]))
        return ["n"]

    def stamp(model, only=None):
        model.producer_name = "me"
        return ["p"]

    m = nested()
    for edit in (rename_input, stamp):
        assert in_body(Rewrite("planted-" + edit.__name__, "planted", edit)).sites(m) == []
    mutant, applied = in_body(Rewrite("planted-new-name", "planted", new_name)).apply(m)
    assert len(applied.nodes) == 3
    then = mutant.graph.node[2].attribute[1].g
    assert then.node[-1].output[0] not in {"s", "t_t"}  # renamed away from the outer "s"
    onnx.checker.check_model(mutant, full_check=True)


def test_a_pass_wrong_only_in_bodies_is_a_finding_on_the_in_body_form():
    """A planted Identity remover that rewires the readers of a removed Identity in the main graph right, and in
    a body only the readers in the main graph (so the body's reader reads a value no longer produced): the plain
    model has no Identity and the main-graph form is handled, the in-body form is a finding."""
    from passcheck.engine import Subject
    from passcheck.runtime import default_bindings

    def remove_identities(model: onnx.ModelProto) -> onnx.ModelProto:
        out = onnx.ModelProto()
        out.CopyFrom(model)

        def strip(g: onnx.GraphProto, rewire: bool) -> None:
            gone = {n.output[0]: n.input[0] for n in g.node if n.op_type == "Identity"}
            keep = [n for n in g.node if n.op_type != "Identity"]
            for n in keep:
                if rewire:
                    n.input[:] = [gone.get(x, x) for x in n.input]
                for a in n.attribute:
                    if a.type == onnx.AttributeProto.GRAPH:
                        strip(a.g, rewire=False)
            del g.node[:]
            g.node.extend(keep)

        strip(out.graph, rewire=True)
        return out

    m = nested()
    m.graph.output.pop()  # the function call out: only the If and its branches
    m.graph.node.pop()
    forms = {
        "common": m,
        "main": REWRITES["identity-edges"].apply(m)[0],
        "in-body": REWRITES["in-body-identity-edges"].apply(m)[0],
    }
    cells = run_planted(Subject("nested", forms, default_bindings(m)), "planted:identity-in-bodies", remove_identities)
    assert not any(c.findings for c in cells if c.form in ("common", "main"))
    assert any(c.findings for c in cells if c.form == "in-body")


def test_a_function_called_with_two_shapes_is_typed_by_what_the_calls_share():
    """``MatMul_fn`` called on [2, 3] x [3, 4] and on [2, 4] x [4, 5]: a body typed from the first call (an If's
    branch outputs [2, 4], written by in-body-node-in-if-const) contradicts the second (round 21l: fusion-sdpa/bare's
    two MatMuls); the view keeps the element types alone. Calls of two element types get no view."""
    plain = onnx.parser.parse_model(
        """<ir_version: 8, opset_import: ["" : 17]>
        g (float[2, 3] x, float[3, 4] w, float[4, 5] v) => (float[2, 5] z) {
            y = MatMul (x, w)
            z = MatMul (y, v)
        }"""
    )
    m = REWRITES["node-as-local-function"].apply(plain)[0]
    assert len(m.functions) == 1
    mutant, applied = REWRITES["in-body-node-in-if-const"].apply(m)
    assert [x.split("::")[0] for x in applied.nodes] == ["fn:MatMul_fn0"], applied.nodes
    branch_out = mutant.functions[0].node[-1].attribute[0].g.output[0].type.tensor_type
    assert branch_out.elem_type == TensorProto.FLOAT and not branch_out.HasField("shape")
    verify_equivalent(m, mutant, feeds(m), "in-body-node-in-if-const")
    two = onnx.parser.parse_model(
        """<ir_version: 8, opset_import: ["" : 17]>
        g (float[2, 3] x, int32[2, 3] i) => (float[2, 3] y, int32[2, 3] j) {
            y = Neg (x)
            j = Neg (i)
        }"""
    )
    shared = REWRITES["node-as-local-function"].apply(two)[0]
    assert len(shared.functions) == 1  # one body for both element types
    assert not any(x.startswith("fn:") for x in REWRITES["in-body-node-in-if-const"].sites(shared))
