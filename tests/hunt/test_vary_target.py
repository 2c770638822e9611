"""Shape vectors given one more leading 1 (:mod:`passcheck.hunt.vary_target`): Expand's, Reshape's and
ConstantOfShape's target lengthened, so the value it shapes gains a leading dim (Operators.md Expand-8/13: output
rank ``max(rank, len(shape))``). Judged with real onnx checks and onnxruntime runs, against a planted pass that drops
an Expand checking dims but not the rank (``tests/hunt/planted_target.py``) and onnxscript's own opt-in
``expand_before_binary_op`` rule: every base wrote its Expand at the rank of the value it shapes, where the two
agree."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from passcheck.cases import Case, Form, register
from passcheck.hunt import variation, vary_target
from passcheck.hunt.probe import Setting

sys.path.insert(0, str(Path(__file__).parent))
import planted_target as P  # noqa: E402 - the planted pass and base case, registered on import
from conftest import run_unoptimized as _run  # noqa: E402

FORM = "vary:shape-target-outrank@s"


def _shapes_model():
    """Expand, Reshape (with and without a 0 entry) and ConstantOfShape reading int64 vectors; one vector also read
    by an Add, one float constant."""
    vi = helper.make_tensor_value_info
    nodes = [
        helper.make_node("Expand", ["x", "e_shape"], ["e"]),
        helper.make_node("Reshape", ["x", "r_shape"], ["r"]),
        helper.make_node("Reshape", ["x", "r_zero"], ["z"]),
        helper.make_node("ConstantOfShape", ["c_shape"], ["c"]),
        helper.make_node("Expand", ["x", "shared"], ["f"]),
        helper.make_node("Add", ["shared", "shared"], ["g"]),
        helper.make_node("Mul", ["x", "w"], ["m"]),
    ]
    inits = [
        helper.make_tensor("e_shape", TensorProto.INT64, [2], [2, 3]),
        helper.make_tensor("r_shape", TensorProto.INT64, [2], [3, 1]),
        helper.make_tensor("r_zero", TensorProto.INT64, [2], [0, 3]),
        helper.make_tensor("c_shape", TensorProto.INT64, [1], [4]),
        helper.make_tensor("shared", TensorProto.INT64, [2], [2, 3]),
        helper.make_tensor("w", TensorProto.FLOAT, [3], [1.0, 2.0, 3.0]),
    ]
    dims = {"e": [2, 3], "r": [3, 1], "z": [1, 3], "c": [4], "f": [2, 3], "g": [2], "m": [1, 3]}
    outs = [vi(n, TensorProto.INT64 if n == "g" else TensorProto.FLOAT, d) for n, d in dims.items()]
    graph = helper.make_graph(nodes, "g", [vi("x", TensorProto.FLOAT, [1, 3])], outs, inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])


def test_only_vectors_read_as_a_shape_are_sites_and_the_neighbour_adds_a_leading_dim():
    model = _shapes_model()
    sites = sorted(s for _, s in vary_target.candidates(model))
    assert sites == ["c_shape", "e_shape", "r_shape"], sites  # r_zero: a 0 copies by index; shared: read by Add
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    before = dict(zip(["e", "r", "z", "c", "f", "g", "m"], _run(model, {"x": x}), strict=True))
    for site, out in (("e_shape", "e"), ("r_shape", "r"), ("c_shape", "c")):
        neighbour, labels = variation.build(model, f"vary:{vary_target.KIND}@{site}")
        assert labels == [site]
        onnx.checker.check_model(neighbour, full_check=True)
        got = dict(zip(["e", "r", "z", "c", "f", "g", "m"], _run(neighbour, {"x": x}), strict=True))
        assert got[out].shape == (1, *before[out].shape), (site, got[out].shape)
        np.testing.assert_array_equal(got[out].reshape(before[out].shape), before[out])  # the same elements
    assert onnx.numpy_helper.to_array(model.graph.initializer[0]).tolist() == [2, 3]  # the base is never modified


def test_the_kind_is_offered_on_the_base_and_its_annotations_follow_the_new_rank():
    forms = {f for f in variation.neighbours(P.base(), random.Random(0)) if variation.family(f) == "shape"}
    assert FORM in forms, forms
    neighbour, _ = variation.build(P.base(), FORM)
    dims = [d.dim_value for d in neighbour.graph.output[0].type.tensor_type.shape.dim]
    assert dims == [1, 2, 3], dims  # y declared at the rank the Add now computes


@pytest.mark.parametrize("pass_id", [P.PASS_ID, "onnxscript:rule-expand-before-binary-op"])
def test_an_expand_dropped_without_its_rank_is_found_on_the_longer_vector_only(inproc_executor, pass_id):
    from passcheck.engine import Subject, evaluate
    from passcheck.hunt import vary_probe
    from passcheck.passes import get_pass

    if get_pass(pass_id).unavailable_reason():
        pytest.skip(get_pass(pass_id).unavailable_reason())
    base = P.base()
    cells = evaluate(
        Subject(id="target-test/expand-add", forms={"common": base}, bindings=[{}]), [pass_id], executor=inproc_executor
    )
    assert not [f for c in cells for f in c.findings], cells  # at the base's rank the drop is right
    setting = vary_probe.setting_for(Setting("target-test/expand-add"), FORM, variation.build(base, FORM)[0])
    assert vary_probe.invalid(setting, base, variation.build(base, FORM)[0], inproc_executor, FORM) is None
    out = vary_probe.judge(Setting("target-test/expand-add"), base, FORM, pass_id, inproc_executor)
    assert out.status == "done", out
    assert {f.oracle for f in out.findings} & {"numeric", "annotations", "validity"}, out.findings


REGROUP_FORM = "vary:shape-target-regroup@sb"


def _matmul_sandwich():
    """``y = Reshape(MatMul(Reshape(a, [2, 3]), Reshape(b, sb)), [2, 4])``, a ``float[2, 3]``, b ``float[3, 4]``,
    ``sb = [3, 4]`` (onnxscript's two-Reshape MatMul pattern, ``_broadcast_to_matmul.py``; opset 18)."""
    vi = helper.make_tensor_value_info
    nodes = [
        helper.make_node("Reshape", ["a", "sa"], ["ra"]),
        helper.make_node("Reshape", ["b", "sb"], ["rb"]),
        helper.make_node("MatMul", ["ra", "rb"], ["m"]),
        helper.make_node("Reshape", ["m", "sc"], ["y"]),
        helper.make_node("Expand", ["a", "se"], ["e"]),
    ]
    inits = [
        helper.make_tensor("sa", TensorProto.INT64, [2], [2, 3]),
        helper.make_tensor("sb", TensorProto.INT64, [2], [3, 4]),
        helper.make_tensor("sc", TensorProto.INT64, [2], [2, 4]),
        helper.make_tensor("se", TensorProto.INT64, [2], [2, 3]),
    ]
    graph = helper.make_graph(
        nodes,
        "sandwich",
        [vi("a", TensorProto.FLOAT, [2, 3]), vi("b", TensorProto.FLOAT, [3, 4])],
        [vi("y", TensorProto.FLOAT, [2, 4]), vi("e", TensorProto.FLOAT, [2, 3])],
        inits,
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


register(
    Case(
        id="target-test/matmul-sandwich",
        forms={"common": Form(_matmul_sandwich), "uncommon": Form(_matmul_sandwich, "the same model")},
        doc="Reshape(MatMul(Reshape(a), Reshape(b)))",
        opset=18,
    )
)


def test_regroup_sites_are_reshape_vectors_and_keep_the_elements_in_order():
    model = _matmul_sandwich()
    regroup = sorted(s for k, s in vary_target.candidates(model) if k == vary_target.REGROUP)
    assert regroup == ["sa", "sb", "sc"], regroup  # se: read by Expand, which broadcasts and does not regroup
    neighbour, labels = variation.build(model, REGROUP_FORM)
    assert labels == ["sb"]
    values = {t.name: onnx.numpy_helper.to_array(t).tolist() for t in neighbour.graph.initializer}
    assert values["sb"] == [4, 3, 1], values  # the last entry moved to a new leading dim
    onnx.checker.check_model(neighbour, full_check=True)
    feeds = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.arange(12, dtype=np.float32).reshape(3, 4)}
    y, _ = _run(neighbour, feeds)
    # MatMul([2, 3], [4, 3, 1]) → [4, 2, 1]: each batch i reads b's row-major elements 3i … 3i + 2 as its column
    want = np.matmul(feeds["a"], feeds["b"].reshape(4, 3, 1)).reshape(2, 4)
    np.testing.assert_array_equal(y, want)
    assert not np.array_equal(y, feeds["a"] @ feeds["b"])  # another computation than the base's
    assert onnx.numpy_helper.to_array(model.graph.initializer[1]).tolist() == [3, 4]  # the base is never modified


def test_onnxscript_drops_the_regrouping_reshape_on_the_neighbour_only(inproc_executor):
    """onnxscript's default rewrite turns the base into MatMul(a, b) with the same values; on the regrouped neighbour
    the final vector still equals MatMul(a, b)'s shape, the rule fires and the values change (numeric finding)."""
    from passcheck.engine import Subject, evaluate
    from passcheck.hunt import vary_probe
    from passcheck.passes import get_pass

    pass_id = "onnxscript:rewrite"
    if get_pass(pass_id).unavailable_reason():
        pytest.skip(get_pass(pass_id).unavailable_reason())
    base = _matmul_sandwich()
    case = "target-test/matmul-sandwich"
    cells = evaluate(Subject(id=case, forms={"common": base}, bindings=[{}]), [pass_id], executor=inproc_executor)
    assert not [f for c in cells for f in c.findings], cells
    out = vary_probe.judge(Setting(case), base, REGROUP_FORM, pass_id, inproc_executor)
    assert out.status == "done", out
    assert "numeric" in {f.oracle for f in out.findings}, out.findings
