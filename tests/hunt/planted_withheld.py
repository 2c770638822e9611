"""A pass that infers an Einsum's rank only, loaded with --cases-from (tests of withheld pairs,
``test_withheld_pairs.py``), and a one-MatMul case it is hunted on.

``planted:einsum-rank-only`` is onnx shape inference, then each Einsum output's dims as the model declares
them, else unknown (rank kept): what onnx 1.16.2 gives (onnx/onnx#6010, fixed in 1.17; docs/recall.md R5),
since onnx merges what it infers into a graph output's declared dims.
"""

import onnx
from onnx import TensorProto, helper

from passcheck.cases import Case, Form, register, registry
from passcheck.passes import FunctionAdapter, known_pass_ids, register_pass

PASS_ID = "planted:einsum-rank-only"
CASE_ID = "withheld-test/matmul"


def einsum_rank_only(model: onnx.ModelProto) -> onnx.ModelProto:
    out = onnx.shape_inference.infer_shapes(model)
    einsum = {o for n in out.graph.node if n.op_type == "Einsum" for o in n.output}
    declared = {o.name: o.type.tensor_type.shape.dim for o in model.graph.output}
    for v in [*out.graph.output, *out.graph.value_info]:
        if v.name in einsum:
            for i, d in enumerate(v.type.tensor_type.shape.dim):
                d.Clear()
                if v.name in declared and i < len(declared[v.name]):
                    d.CopyFrom(declared[v.name][i])
    return out


def matmul(name: str = "") -> onnx.ModelProto:
    a = helper.make_tensor_value_info("a", TensorProto.FLOAT, [2, 3])
    b = helper.make_tensor_value_info("b", TensorProto.FLOAT, [3, 4])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])
    graph = helper.make_graph([helper.make_node("MatMul", ["a", "b"], ["y"], name=name)], "g", [a, b], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)], ir_version=8)


if PASS_ID not in known_pass_ids():
    register_pass(FunctionAdapter(PASS_ID, einsum_rank_only, doc="test pass: onnx shape inference, Einsum rank-only"))
if not any(c.id == CASE_ID for c in registry().select([])):
    register(
        Case(
            id=CASE_ID,
            forms={"common": Form(matmul), "named": Form(lambda: matmul("mm"), "node named")},
            doc="one MatMul, output dims declared",
            opset=13,
        )
    )
