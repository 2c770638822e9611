"""A value read through a reshape to its own dims whose rank shape inference cannot see
(:mod:`passcheck.mutations.rank_opaque`): the sites, onnx inference (with and without data propagation) giving
the view no shape, onnxruntime computing the same tensors, and a planted pass that keeps only the inputs whose
shape it knows (the version converter's Scan 8 → 9 adapter did so before onnx 1.23: docs/recall.md R27) found on
the rewritten form and not on the base."""

from __future__ import annotations

import numpy as np
import onnx
import onnxruntime as ort
import pytest
from onnx import TensorProto, helper, numpy_helper

from passcheck.mutations.registry import REWRITES
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

RID = "rank-opaque-view"
PASS_ID = "planted:concat-known-shapes"


def model(opset: int = 13) -> onnx.ModelProto:
    """``r = Relu(x)``, ``y = Concat(r, x, b, axis=0)``; ``x: [2, 3]``, ``b`` a ``[1, 3]`` initializer."""
    nodes = [
        helper.make_node("Relu", ["x"], ["r"], name="relu"),
        helper.make_node("Concat", ["r", "x", "b"], ["y"], name="cat", axis=0),
    ]
    b = numpy_helper.from_array(np.full((1, 3), 7, np.float32), "b")
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [5, 3])
    graph = helper.make_graph(nodes, "g", [x], [y], [b])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def run(m: onnx.ModelProto) -> np.ndarray:
    sess = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
    return sess.run(None, {"x": np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)})[0]


def keep_known_shapes(m: onnx.ModelProto) -> onnx.ModelProto:
    """Each Concat keeps only the inputs onnx inference gives a shape (or that are initializers)."""
    inferred = onnx.shape_inference.infer_shapes(m).graph
    shaped = {v.name for v in [*inferred.input, *inferred.value_info] if v.type.tensor_type.HasField("shape")}
    shaped |= {t.name for t in m.graph.initializer}
    for n in m.graph.node:
        if n.op_type == "Concat":
            kept = [x for x in n.input if x in shaped]
            del n.input[:]
            n.input.extend(kept)
    return m


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, keep_known_shapes, doc="test pass: Concat keeps inputs of known shape"))


@pytest.mark.parametrize("opset", [13, 21])  # Reshape-14 and Reshape-21 (which infers a rank from the shape's length)
def test_each_computed_or_fed_value_is_a_site_and_the_view_has_no_shape(opset):
    m = model(opset)
    assert REWRITES[RID].sites(m) == ["x", "r"]  # not the initializer b
    mutant, _ = REWRITES[RID].apply(m)
    onnx.checker.check_model(mutant, full_check=True)
    for data_prop in (False, True):
        inferred = onnx.shape_inference.infer_shapes(mutant, data_prop=data_prop).graph
        cat = next(n for n in inferred.node if n.op_type == "Concat")
        types = {v.name: v.type.tensor_type for v in inferred.value_info}
        assert [types[x].HasField("shape") for x in cat.input[:2]] == [False, False], data_prop
        assert cat.input[2] == "b"
    assert np.array_equal(run(mutant), run(m)) and run(mutant).shape == (5, 3)


@pytest.mark.parametrize("opset", [6, 8, 18])  # onnxruntime has no Relu kernel before Relu-6
def test_the_view_runs_at_every_opset_reshape_takes_its_shape_as_input(opset):
    m = model(opset)
    mutant, _ = REWRITES[RID].apply(m)
    onnx.checker.check_model(mutant)
    assert np.array_equal(run(mutant), run(m))


def test_below_opset_6_there_is_no_site():
    m = model()
    m.opset_import[0].version = 5
    assert REWRITES[RID].sites(m) == []


def test_a_pass_that_drops_what_it_cannot_shape_is_found_on_the_view_only():
    from passcheck.engine import Subject, evaluate
    from passcheck.passes.isolation import executor_for

    m = model()
    mutant, _ = REWRITES[RID].apply(m, ["r"])
    with executor_for(None, timeout=60) as ex:
        alone = evaluate(Subject(id="rank-opaque/concat", forms={"common": m}, bindings=[{}]), [PASS_ID], executor=ex)
        assert not [f for c in alone for f in c.findings], alone  # every input shaped: the Concat is kept whole
        pair = {"common": m, RID: mutant}
        cells = evaluate(Subject(id="rank-opaque/concat", forms=pair, bindings=[{}]), [PASS_ID], executor=ex)
    found = [f for c in cells for f in c.findings if c.form == RID]
    assert found, cells


def test_no_withheld_pair_is_made_with_the_view():
    # the view's side says less by construction: a withheld pair with it would blame the pass for the form
    # (tests/hunt/test_withheld_pairs.py's hunt reported `less-precise` on anonymous-output-dims+rank-opaque-view)
    from passcheck.mutations import withheld

    assert withheld.forms(["anonymous-output-dims", "rank-opaque-view", "einsum-spelling"]) == [
        "anonymous-output-dims+einsum-spelling"
    ]


def one_hot_encoder() -> onnx.ModelProto:
    """``y = ai.onnx.ml.OneHotEncoder(x, cats_int64s=[1, 2, 3])``, ``x: int64[4]``: ``y`` is ``float[4, 3]``
    (Operators-ml.md OneHotEncoder: the output appends a dimension of the category count to the input's shape)."""
    node = helper.make_node("OneHotEncoder", ["x"], ["y"], domain="ai.onnx.ml", cats_int64s=[1, 2, 3], zeros=1)
    graph = helper.make_graph(
        [node],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.INT64, [4])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4, 3])],
    )
    return helper.make_model(
        graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("ai.onnx.ml", 1)], ir_version=8
    )


def test_a_value_read_by_an_operator_of_another_onnx_domain_is_a_site():
    # IR.md §Operator sets: ai.onnx.ml is one of onnx's own domains; its operators read a value of unknown rank too
    m = one_hot_encoder()
    assert REWRITES[RID].sites(m) == ["x"]
    mutant, _ = REWRITES[RID].apply(m)
    onnx.checker.check_model(mutant, full_check=True)
    inferred = onnx.shape_inference.infer_shapes(mutant).graph
    view = next(n for n in inferred.node if n.op_type == "OneHotEncoder").input[0]
    assert not next(v for v in inferred.value_info if v.name == view).type.tensor_type.HasField("shape")
    feed = {"x": np.array([1, 2, 3, 9], np.int64)}
    got = [
        ort.InferenceSession(x.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feed)[0]
        for x in (m, mutant)
    ]
    assert got[0].shape == (4, 3) and np.array_equal(got[0], got[1])


def test_a_custom_domain_reader_is_no_site():
    m = one_hot_encoder()
    m.graph.node[0].domain = "org.example"
    m.opset_import[1].domain = "org.example"
    assert REWRITES[RID].sites(m) == []
