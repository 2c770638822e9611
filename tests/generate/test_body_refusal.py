"""Whose refusal (passcheck/generate/body_refusal.py): the full checker refusing a generated pair's common form
inside the op's own function body, for a node its schema types, is the tool's (``tool``), not a spelling that
does not apply (``n/a``). Real onnx 1.23.2 schemas, bodies and shape inference throughout: MeanVarianceNormalization
-9/13/18 (T: float16, float, double, bfloat16) write ``float`` Constants beside ``T`` operands; their opset-18 body
reads ``axes`` through ``Constant <value_ints = @axes>``."""

from __future__ import annotations

import onnx
import onnx.defs
import onnx.helper as oh
import pytest
from onnx import TensorProto as T

from passcheck.engine import feeds_for
from passcheck.errors import WorkerDied
from passcheck.generate import model as gen_model
from passcheck.generate import recipe
from passcheck.generate.body_refusal import DEFAULTS, TYPES, expanded_refusal, refused_body, well_typed
from passcheck.generate.gate import gate
from passcheck.oracles.validity import checker_error
from passcheck.runtime.session import run_ort

MVN = "MeanVarianceNormalization"


def _one(op: str, opset: int, elem: int, shape=(2, 3, 4, 5), **attrs) -> onnx.ModelProto:
    x = oh.make_tensor_value_info("x", elem, list(shape))
    y = oh.make_tensor_value_info("y", elem, list(shape))
    graph = oh.make_graph([oh.make_node(op, ["x"], ["y"], **attrs)], "g", [x], [y])
    return oh.make_model(graph, opset_imports=[oh.make_opsetid("", opset)])


def _generated(op: str, opset: int, elem: int, infer=lambda m: m) -> onnx.ModelProto:
    """The generator's own common form (a bfloat16 input arrives through a Cast)."""
    node = recipe.build_node(onnx.defs.get_schema(op, opset), opset, elem)
    return gen_model.to_model(node, infer=infer)


@pytest.mark.parametrize(
    ("opset", "elem", "inner"), [(9, T.DOUBLE, "Pow"), (13, T.FLOAT16, "Add"), (18, T.DOUBLE, "Add")]
)
def test_a_body_refusing_a_type_its_schema_allows(opset, elem, inner):
    model = _one(MVN, opset, elem, axes=[0, 2, 3])
    assert checker_error(model), "the premise: the full checker refuses the node"
    reading, why = refused_body(model)
    assert reading == TYPES
    assert f"(op_type:{inner})" in why and "inconsistent type tensor(float)" in why


def test_the_generators_forms_through_a_wrapping_cast():
    reading, why = refused_body(_generated(MVN, 13, T.BFLOAT16))
    assert reading == TYPES and "(op_type:Add)" in why
    assert refused_body(_generated(MVN, 13, T.FLOAT)) is None


@pytest.mark.parametrize("opset", [13, 18])
def test_an_omitted_attribute_whose_default_the_body_needs(opset):
    # axes omitted: default [0, 2, 3] (Operators.md MeanVarianceNormalization); at opset 13 onnx's inference
    # expands the schema's newest body (opset 18's, whose Constant reads @axes), not opset 13's
    model = _one(MVN, opset, T.FLOAT)
    assert checker_error(model), "the premise: onnx 1.23.2 refuses the node with axes omitted"
    reading, why = refused_body(model)
    assert reading == DEFAULTS and "(op_type:Constant)" in why
    assert refused_body(_one(MVN, opset, T.FLOAT, axes=[0, 2, 3])) is None


def test_no_blame_on_the_body_where_the_schema_or_no_body_refuses():
    schema = onnx.defs.get_schema(MVN, 13)
    int64 = oh.make_tensor_type_proto(T.INT64, [2, 3, 4, 5])
    assert not well_typed(schema, [int64])
    assert refused_body(_one(MVN, 13, T.INT64, axes=[0, 2, 3])) is None  # the schema's T has no int64
    assert refused_body(_one("Relu", 14, T.FLOAT)) is None  # no function body
    ln = oh.make_graph(
        [oh.make_node("LayerNormalization", ["x", "s"], ["y"])],
        "g",
        [oh.make_tensor_value_info("x", T.DOUBLE, [2, 5]), oh.make_tensor_value_info("s", T.DOUBLE, [5])],
        [oh.make_tensor_value_info("y", T.DOUBLE, [2, 5])],
    )
    assert refused_body(oh.make_model(ln, opset_imports=[oh.make_opsetid("", 17)])) is None  # its body takes double


def test_the_gate_blames_the_tool_only_after_the_body_alone_is_refused():
    common = _generated(MVN, 13, T.DOUBLE, infer=gen_model.infer_shapes)
    feeds = feeds_for(common, "generated/meanvariancenormalization-13.dtype.double", [{}])
    verdict = gate({"common": common, "other": common}, feeds, run_ort)
    assert (verdict.ok, verdict.category) == (False, "tool")
    assert TYPES in verdict.reason and "the body alone" in verdict.detail
    # a refusal of the form itself stays the spelling's: MatMul of rank 0 (Operators.md MatMul: numpy matmul)
    scalar = _one("MatMul", 13, T.FLOAT, shape=())
    scalar.graph.node[0].input.append("x")
    verdict = gate({"common": scalar, "other": scalar}, feeds_for(scalar, "matmul-rank-0", [{}]), run_ort)
    assert (verdict.category, verdict.reason) == ("n/a", "checker rejects common")


def test_onnxruntime_refusing_the_body_it_expanded_is_the_tools():
    # Attention-23's context-dependent body (onnx's inference never expands it, so the checker accepts the node):
    # Q, K bound to float16 and V to float (T1, T2 separate constraints), the body's last MatMul mixes them
    # (docs/found.md row 770); onnxruntime has no kernel for the pair and expands the same body
    common = _generated("Attention", 23, T.FLOAT16, infer=gen_model.infer_shapes)
    assert checker_error(common) is None, "the premise: the full checker accepts the node"
    feeds = feeds_for(common, "generated/attention-23.dtype.float16", [{}])
    error = run_ort(common, dict(feeds[0])).error
    assert "Optype (MatMul) bound to different types" in error, "the premise: onnxruntime refuses it at load"
    reading, why = expanded_refusal(common, error)
    assert reading == TYPES and "(op_type:MatMul)" in why
    verdict = gate({"common": common, "other": common}, feeds, run_ort)
    assert (verdict.category, verdict.reason) == ("tool", f"onnxruntime: {TYPES}")
    # a refusal that names no op of the body, or the node itself, is not the body's
    assert expanded_refusal(common, "Non-zero status code returned while running Attention node") is None
    own = "Type Error: Type parameter (T1) of Optype (Attention) bound to different types"
    assert expanded_refusal(common, own) is None


def test_a_body_refused_whatever_the_types_is_not_blamed():
    # BlackmanWindow-17's output_datatype written with no value field (the generator's attr-no-value spelling):
    # the body's Cast gets to = 0 and onnx refuses it for any binding (ValueError "Invalid tensor data type 0");
    # the plain-binding contrast keeps it the form's refusal, and nothing is raised
    model = _generated("BlackmanWindow", 17, T.INT64)
    (node,) = [n for n in model.graph.node if n.op_type == "BlackmanWindow"]
    node.attribute.append(onnx.AttributeProto(name="output_datatype", type=onnx.AttributeProto.INT))
    assert checker_error(model), "the premise: the checker refuses the form"
    assert refused_body(model) is None


def test_a_verification_whose_worker_dies_leaves_the_old_word():
    # the generator runs the verifications in its isolation worker; a death there (onnx crashing on a body) is no
    # verdict, so the gate keeps "n/a" rather than stopping or blaming either side
    def dies(*_args):
        raise WorkerDied("the worker died: SIGSEGV")

    common = _generated(MVN, 13, T.DOUBLE, infer=gen_model.infer_shapes)
    feeds = feeds_for(common, "generated/meanvariancenormalization-13.dtype.double", [{}])
    verdict = gate({"common": common, "other": common}, feeds, run_ort, bodies=dies)
    assert (verdict.category, verdict.reason) == ("n/a", "checker rejects common")
