"""M523: constant operands under the non-default attribute values the schemas allow
(passcheck.generate.attr_values, ``generated/<op>-<v>.variant.const-operands.<attr>-<value>``), with real onnx
schemas and onnxruntime; a planted pass that folds a constant Gemm weight ignoring ``transB`` is caught on the new
variant and clean on the default-attribute one."""

from __future__ import annotations

import onnx
import onnx.defs
import pytest
from onnx import helper, numpy_helper

from passcheck.engine import Subject, evaluate
from passcheck.generate import attr_values, recipe, variants
from passcheck.generate.pair import Ctx
from passcheck.passes import FunctionAdapter, register_pass, unregister_pass
from tests._shared import generated_cases


def _labels(op: str) -> dict[str, recipe.Node]:
    schema = onnx.defs.get_schema(op)
    return dict(attr_values.non_default(recipe.build_node(schema, schema.since_version)))


def test_rules_follow_the_schema_names():
    gemm = _labels("Gemm")
    assert set(gemm) == {"transa-1", "transb-1"}
    b = next(i for i in gemm["transb-1"].inputs if i.name == "B")
    assert b.shape == (5, 4)  # (K, N) swapped for transB = 1
    conv = _labels("Conv")["group-2"]
    assert [i.shape for i in conv.inputs if i.name in ("X", "W")] == [(1, 2, 5, 5), (4, 1, 3, 3)]
    assert set(_labels("Transpose")) == {"perm-1-2-0"}
    assert "axis-2" in _labels("Gather") or "axis-0" in _labels("Gather")
    assert _labels("Relu") == {}  # no attribute a rule reads


def test_one_input_ops_get_the_operand_as_initializer_and_as_constant_node():
    schema = onnx.defs.get_schema("Transpose")
    node = recipe.build_node(schema, schema.since_version)
    (pair,) = variants.const_attr_pairs(node, "t/transpose.shape")
    assert pair.detail == "const-operands.perm-1-2-0" and set(pair.forms) == {"common", "constant"}
    assert [i.mode for i in pair.forms["constant"][0].inputs] == ["constant"]
    assert "const-operands.perm-1-2-0" in {p.detail for p in variants.pairs(node, Ctx(13, None), "t/x.shape")}


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    yield from generated_cases(tmp_path_factory, "const-attr-variants-cache", ["Gemm"])


def fold_gemm_weight_ignoring_transb(model: onnx.ModelProto) -> onnx.ModelProto:
    """Broken: ``Gemm(A, B, C)`` with initializers B, C becomes ``MatMul(A, alpha * B) + beta * C``, reading ``transA``
    but not ``transB`` (the weight is folded as if never transposed)."""
    g = model.graph
    inits = {t.name: t for t in g.initializer}
    for n in [n for n in g.node if n.op_type == "Gemm"]:
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        if attrs.get("transA", 0) or len(n.input) < 3 or n.input[1] not in inits or n.input[2] not in inits:
            continue
        b, c = numpy_helper.to_array(inits[n.input[1]]), numpy_helper.to_array(inits[n.input[2]])
        folded_b = numpy_helper.from_array((b * attrs.get("alpha", 1.0)).astype(b.dtype), n.input[1] + "_f")
        folded_c = numpy_helper.from_array((c * attrs.get("beta", 1.0)).astype(c.dtype), n.input[2] + "_f")
        g.initializer.extend([folded_b, folded_c])
        mm = helper.make_node("MatMul", [n.input[0], folded_b.name], [n.output[0] + "_mm"])
        add = helper.make_node("Add", [mm.output[0], folded_c.name], [n.output[0]])
        k = list(g.node).index(n)
        g.node.remove(n)
        g.node.insert(k, add)
        g.node.insert(k, mm)
    return model


def _cells(case, fn):
    pid = f"planted:{fn.__name__}"
    register_pass(FunctionAdapter(pid, fn, folds_constants=True))
    try:
        return [c for c in evaluate(Subject.from_case(case, onnx.__version__), [pid]) if c.pass_id == pid]
    finally:
        unregister_pass(pid)


def test_a_fold_ignoring_transb_is_caught_on_the_new_variant_only(cases):
    new = cases["generated/gemm-13.variant.const-operands.transb-1"]
    model = new.build("common")
    (gemm,) = [n for n in model.graph.node if n.op_type == "Gemm"]
    assert {a.name: a.i for a in gemm.attribute}.get("transB") == 1
    assert {i.name for i in model.graph.initializer} >= {"B", "C"}
    caught = [f for c in _cells(new, fold_gemm_weight_ignoring_transb) for f in c.findings if f.oracle == "numeric"]
    assert caught, "the planted fold ignoring transB was not caught"
    default = cases["generated/gemm-13.variant.const-operands"]
    clean = [f for c in _cells(default, fold_gemm_weight_ignoring_transb) for f in c.findings if f.oracle == "numeric"]
    assert clean == []  # the fold is right where transB is its default
