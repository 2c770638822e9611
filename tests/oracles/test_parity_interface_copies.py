"""Parity and the Identity copies an interface needs (:mod:`passcheck.oracles.interface_copies`): a pass that keeps
an Identity because two graph outputs carry one value, or because an If branch outputs an outer-scope value, missed
nothing; an Identity it could have removed and kept is still a missed optimization. Judged by the engine on real
onnxruntime runs with a planted Identity eliminator of the kind onnxoptimizer's ``eliminate_identity`` is (it
renames the copied initializer to the output's name)."""

from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.engine import Subject, evaluate
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass

K = np.arange(3, dtype=np.float32)


def _model(nodes, inits: dict[str, np.ndarray], outputs=("c1", "c2")):
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [3])
    outs = [helper.make_tensor_value_info(o, TensorProto.FLOAT, [3]) for o in ("y", *outputs)]
    graph = helper.make_graph(
        [helper.make_node("Neg", ["x"], ["y"]), *nodes],
        "g",
        [x],
        outs,
        [numpy_helper.from_array(v, k) for k, v in inits.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


def _branch(name: str, nodes, out: str):
    return helper.make_graph(nodes, name, [], [helper.make_tensor_value_info(out, TensorProto.FLOAT, [3])])


def _if_copy(out: str):
    """``out = If(ReduceSum(x) < 0)`` whose branches copy ``k1``, an outer-scope value."""

    def branch(tag):
        return _branch(tag, [helper.make_node("Identity", ["k1"], [f"{out}_{tag}"])], f"{out}_{tag}")

    return [
        helper.make_node("ReduceSum", ["x"], ["s"], keepdims=0),
        helper.make_node("Less", ["s", "zero"], ["cond"]),
        helper.make_node("If", ["cond"], [out], then_branch=branch("then"), else_branch=branch("else")),
    ]


def _eliminator(lazy: bool):
    """A pass removing every main-graph Identity whose input is an initializer that is no graph input or output: the
    initializer takes the output's name and every reader reads it (a later copy of the renamed value stays);
    ``lazy``: only an initializer read by that Identity alone."""
    return lambda model: _eliminate_identities(model, lazy)


def _eliminate_identities(model, lazy: bool):
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    fixed = {v.name for v in g.input} | {v.name for v in g.output}
    for n in list(g.node):
        src = n.input[0] if n.op_type == "Identity" else None
        readers = sum(src in m.input for m in g.node)
        if src in inits and src not in fixed and n.output[0] in fixed and not (lazy and readers > 1):
            inits[src].name = n.output[0]
            inits[n.output[0]] = inits.pop(src)
            for m in g.node:
                m.input[:] = [n.output[0] if i == src else i for i in m.input]
            g.node.remove(n)
    return model


@pytest.fixture(scope="module")
def planted():
    from passcheck.passes.isolation import executor_for

    ids = ("planted:eliminate-identity", "planted:eliminate-identity-lazy")
    for pid in ids:
        register_pass(FunctionAdapter(pid, _eliminator(pid.endswith("lazy")), optimizes=True))
    with executor_for(None, timeout=60) as executor:
        yield executor
    for pid in ids:
        unregister_pass(pid)


def _parity(forms: dict, executor, pass_id: str = "planted:eliminate-identity") -> list:
    subject = Subject(id="parity-test/interface-copies", forms=forms, bindings=[{"x": np.ones(3, np.float32)}])
    cells = evaluate(subject, [pass_id], executor=executor)
    ran = {c.form: c.status for c in cells if c.pass_id == pass_id}
    assert set(ran) == set(forms) and "error" not in ran.values(), ran
    return [(f.kind, f.form) for c in cells for f in c.findings if f.oracle == "parity"]


SHARED = [helper.make_node("Identity", ["k1"], ["c1"]), helper.make_node("Identity", ["k1"], ["c2"])]
DISTINCT = [helper.make_node("Identity", ["k1"], ["c1"]), helper.make_node("Identity", ["k2"], ["c2"])]


def test_a_copy_of_one_value_to_a_second_output_is_needed(planted):
    # ``shared``: both outputs copy k1, one copy must stay; ``common``: two initializers, both copies go
    forms = {"common": _model(DISTINCT, {"k1": K, "k2": K}), "shared": _model(SHARED, {"k1": K})}
    assert _parity(forms, planted) == []


def test_a_branch_copying_an_outer_value_is_needed(planted):
    inits = {"k1": K, "zero": np.float32(0)}
    common = _model([helper.make_node("Identity", ["k1"], ["c1"])], inits, ("c1",))
    assert _parity({"common": common, "in-if": _model(_if_copy("c1"), inits, ("c1",))}, planted) == []


def test_a_removable_copy_kept_is_still_a_missed_optimization(planted):
    # the lazy pass keeps both of ``shared``'s copies; one of them could go
    forms = {"common": _model(DISTINCT, {"k1": K, "k2": K}), "shared": _model(SHARED, {"k1": K})}
    assert _parity(forms, planted, "planted:eliminate-identity-lazy") == [("missed-optimization", "shared")]
