"""The rewrites ``outer-reads-through-identity`` / ``-cast`` (:mod:`passcheck.mutations.outer_reads`): a
main-graph value a body reads is read there through a main-graph Identity (or a Cast to its own type); judged
with the full checker, real onnxruntime runs, the hunt's forms of a one-node generated base, and a planted pass
that removes Identity nodes and same-type Casts renaming main-graph readers only (as onnxruntime 1.18.1 /
1.20.1's Python fusions did, docs/recall.md R67)."""

from __future__ import annotations

import random

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper

from passcheck.mutations.forms import build, enumerate_forms
from passcheck.mutations.registry import REWRITES
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

RID = "outer-reads-through-identity"
CAST = "outer-reads-through-cast"
PASS_ID = "planted:no-op-removal-main-readers-only"


def _no_op(n: onnx.NodeProto, types: dict[str, int]) -> bool:
    if n.op_type == "Identity":
        return True
    to = next((a.i for a in n.attribute if a.name == "to"), None)
    return n.op_type == "Cast" and to is not None and types.get(n.input[0]) == to


def _remove_no_ops_main_readers_only(model: onnx.ModelProto) -> onnx.ModelProto:
    """Remove each main-graph Identity (or Cast to its input's own type) whose output is no graph output, renaming
    the main graph's readers of its output to its input and no body's (a test pass: a body read of the removed
    value is left dangling)."""
    g = model.graph
    outputs = {o.name for o in g.output}
    types = {v.name: v.type.tensor_type.elem_type for v in g.input}
    dead = [n for n in g.node if _no_op(n, types) and n.output[0] not in outputs]
    for d in dead:
        for n in g.node:
            for k, x in enumerate(n.input):
                if x == d.output[0]:
                    n.input[k] = d.input[0]
    keep = [n for n in g.node if n not in dead]
    del g.node[:]
    g.node.extend(keep)
    return model


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, _remove_no_ops_main_readers_only, doc="test pass: no-op removal"))


def _if_model() -> onnx.ModelProto:
    """``h = Relu(x)``; ``y = If(c){Neg(h) + x}{Abs(h)}``: the branches read ``h`` (a node output) and ``x`` (a
    graph input) from the main graph; ``c`` is a bool graph input."""
    f = TensorProto.FLOAT
    then_g = helper.make_graph(
        [helper.make_node("Neg", ["h"], ["nh"]), helper.make_node("Add", ["nh", "x"], ["a"])],
        "then",
        [],
        [helper.make_tensor_value_info("a", f, [2, 3])],
    )
    else_g = helper.make_graph(
        [helper.make_node("Abs", ["h"], ["b"])], "else", [], [helper.make_tensor_value_info("b", f, [2, 3])]
    )
    graph = helper.make_graph(
        [
            helper.make_node("Relu", ["x"], ["h"]),
            helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g),
        ],
        "g",
        [helper.make_tensor_value_info("x", f, [2, 3]), helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", f, [2, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)


def _run(model, feeds, level=ort.GraphOptimizationLevel.ORT_DISABLE_ALL):
    so = ort.SessionOptions()
    so.graph_optimization_level = level
    return ort.InferenceSession(model.SerializeToString(), so, providers=["CPUExecutionProvider"]).run(None, feeds)[0]


@pytest.mark.parametrize(("rid", "op"), [(RID, "Identity"), (CAST, "Cast")])
def test_every_outer_read_goes_through_a_main_graph_copy_and_computes_the_same(rid, op):
    base = _if_model()
    assert REWRITES[rid].sites(base) == ["x", "h"]  # graph input first, then the node output (model order)
    rewritten, applied = REWRITES[rid].apply(base)
    assert applied.nodes == ("x", "h")
    onnx.checker.check_model(rewritten, full_check=True)
    made = {o: n for n in rewritten.graph.node for o in n.output}
    iff = next(n for n in rewritten.graph.node if n.op_type == "If")
    reads = {x for a in iff.attribute for n in a.g.node for x in n.input}
    assert "h" not in reads and "x" not in reads  # every body read is of a copy
    assert all(made[r].op_type == op for r in reads if r in made)
    assert [n.op_type for n in rewritten.graph.node] == ["Relu", op, op, "If"]
    x = np.random.default_rng(0).standard_normal((2, 3)).astype(np.float32)
    for c in (True, False):
        feeds = {"x": x, "c": np.array(c)}
        want = _run(base, feeds)
        for level in (ort.GraphOptimizationLevel.ORT_DISABLE_ALL, ort.GraphOptimizationLevel.ORT_ENABLE_ALL):
            assert np.array_equal(_run(rewritten, feeds, level), want)


def test_no_site_without_a_body():
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["h"]), helper.make_node("Neg", ["h"], ["y"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=7)
    assert REWRITES[RID].apply(model) is None and REWRITES[CAST].apply(model) is None


def test_the_hunt_offers_it_after_a_node_moved_into_an_if_on_a_one_node_generated_base():
    """A generated base has no body; ``node-in-if-opaque`` gives it one whose branches read the op's inputs from the
    main graph, and the pair ``node-in-if-opaque+outer-reads-through-identity`` is offered for every seed."""
    from passcheck.cases import registry

    base = registry().get("generated/relu-13.shape").forms["common"].build()
    assert REWRITES[RID].apply(base) is None and REWRITES[CAST].apply(base) is None
    for seed in range(3):
        forms = enumerate_forms(base, random.Random(seed))
        assert {f"node-in-if-opaque+{RID}", f"node-in-if-opaque+{CAST}"} <= set(forms), (seed, forms)
    for rid in (RID, CAST):
        built, _ = build(base, f"node-in-if-opaque+{rid}")
        onnx.checker.check_model(built, full_check=True)


@pytest.fixture(scope="module")
def ex():
    from passcheck.passes.isolation import executor_for

    with executor_for(None, timeout=60) as executor:
        yield executor


@pytest.mark.parametrize("rid", [RID, CAST])
def test_a_pass_that_renames_main_graph_readers_only_is_found_on_the_rewritten_form_only(ex, rid):
    from passcheck.engine import Subject, evaluate

    base = _if_model()
    rewritten, _ = REWRITES[rid].apply(base)
    forms = {"common": base, rid: rewritten}
    bindings = [{}]
    cells = evaluate(Subject(id="outer-reads-test/if", forms=forms, bindings=bindings), [PASS_ID], executor=ex)
    found = {c.form: {f.oracle for f in c.findings} for c in cells if c.pass_id == PASS_ID}
    assert not found["common"], cells  # no Identity: nothing to remove
    assert found[rid] & {"validity", "acceptance", "numeric"}, cells


@pytest.mark.parametrize(("rid", "op"), [(RID, "Identity"), (CAST, "Cast")])
def test_the_current_python_fusions_rename_the_body_reads_too(tmp_path, rid, op):
    """onnxruntime 1.22.1 and later rename every graph's readers when their cleanup removes the Identity: the
    rewritten form stays checker-valid and computes the same (1.18.1 / 1.20.1 left the body reading the removed
    value, docs/recall.md R67)."""
    from onnxruntime.transformers.optimizer import optimize_model

    rewritten, _ = REWRITES[rid].apply(_if_model())
    out = optimize_model(rewritten, "bert", num_heads=0, hidden_size=0, opt_level=0)
    out.save_model_to_file(str(tmp_path / "o.onnx"))
    model = onnx.load(tmp_path / "o.onnx")
    assert op not in [n.op_type for n in model.graph.node]  # removed, and the bodies renamed
    onnx.checker.check_model(model, full_check=True)
    feeds = {"x": np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3), "c": np.array(True)}
    assert np.array_equal(_run(model, feeds), _run(_if_model(), feeds))


def test_no_cast_copy_below_opset_6_where_cast_names_its_type_as_a_string():
    """Cast-1 (opsets 1-5) takes ``to`` as a string: the Cast copy is offered from opset 6 (Cast-6), the Identity
    copy at every opset."""
    f = TensorProto.FLOAT
    op, o = "Neg", "a"
    branch = [helper.make_graph([helper.make_node(op, ["x"], [o])], op, [], [helper.make_tensor_value_info(o, f, [2])])]
    then_g, else_g = (
        branch[0],
        helper.make_graph(
            [helper.make_node("Abs", ["x"], ["b"])], "Abs", [], [helper.make_tensor_value_info("b", f, [2])]
        ),
    )
    graph = helper.make_graph(
        [helper.make_node("If", ["c"], ["y"], then_branch=then_g, else_branch=else_g)],
        "g",
        [helper.make_tensor_value_info("x", f, [2]), helper.make_tensor_value_info("c", TensorProto.BOOL, [])],
        [helper.make_tensor_value_info("y", f, [2])],
    )
    for version, cast_sites in ((5, []), (6, ["x"])):
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", version)], ir_version=3)
        assert REWRITES[CAST].sites(model) == cast_sites
        assert REWRITES[RID].sites(model) == ["x"]
