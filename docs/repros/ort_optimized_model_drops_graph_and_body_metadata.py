"""onnxruntime 1.32.0, the optimized model a session saves (`SessionOptions.optimized_model_filepath`), on
`y = If(c, then: Neg(Identity(x)), else: Abs(Identity(x)))` with an Identity before the If in one variant;
opset 21, IR 10. The main graph and the then-branch each state a doc_string and a metadata_props entry
(IR.md §Graphs: every graph's documentation; §Other Metadata: metadata_props on graphs from IR 10).

At ORT_DISABLE_ALL (nothing changed) the saved model states all four; once a transformer changed the graph (the
Identity removed at ORT_ENABLE_BASIC) the main graph's and the body's metadata_props are gone, their doc_strings
kept: the graph is written back from onnxruntime's Graph (`Graph::ToGraphProtoInternal`, core/graph/graph.cc,
writes a graph's name and doc_string and no metadata_props; `Node::ToProto` writes each body back from its
subgraph the same way). Exit 1 while either is dropped. Row 985 is the same write-back dropping the graph
inputs' and outputs' doc_string and metadata_props."""

import os
import sys
import tempfile

import onnx
import onnxruntime as ort
from onnx import TensorProto, helper


def model(identity: bool) -> onnx.ModelProto:
    src = "i" if identity else "x"
    then_g = helper.make_graph(
        [helper.make_node("Neg", [src], ["t"])],
        "then_body",
        [],
        [helper.make_tensor_value_info("t", TensorProto.FLOAT, [2])],
    )
    then_g.doc_string = "the branch taken when c holds"
    then_g.metadata_props.add(key="k", value="then")
    else_g = helper.make_graph(
        [helper.make_node("Abs", [src], ["e"])],
        "else_body",
        [],
        [helper.make_tensor_value_info("e", TensorProto.FLOAT, [2])],
    )
    nodes = [helper.make_node("Identity", ["x"], ["i"])] if identity else []
    nodes.append(helper.make_node("If", ["c"], ["y"], name="branch", then_branch=then_g, else_branch=else_g))
    g = helper.make_graph(
        nodes,
        "g",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [2]),
            helper.make_tensor_value_info("c", TensorProto.BOOL, []),
        ],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])],
        doc_string="what the graph computes",
    )
    g.metadata_props.add(key="k", value="main")
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 21)], ir_version=10)
    onnx.checker.check_model(m, full_check=True)
    return m


def saved(m: onnx.ModelProto, level) -> onnx.ModelProto:
    with tempfile.TemporaryDirectory() as d:
        so = ort.SessionOptions()
        so.graph_optimization_level = level
        so.optimized_model_filepath = os.path.join(d, "optimized.onnx")
        ort.InferenceSession(m.SerializeToString(), so, providers=["CPUExecutionProvider"])
        return onnx.load(so.optimized_model_filepath)


def described(m: onnx.ModelProto) -> tuple:
    g = m.graph
    (if_node,) = [n for n in g.node if n.op_type == "If"]
    then_g = next(a.g for a in if_node.attribute if a.name == "then_branch")
    props = lambda x: {p.key: p.value for p in x.metadata_props}  # noqa: E731
    return (g.doc_string, props(g), then_g.doc_string, props(then_g))


bad = False
for identity, level in (
    (False, ort.GraphOptimizationLevel.ORT_DISABLE_ALL),
    (True, ort.GraphOptimizationLevel.ORT_ENABLE_BASIC),
):
    m = model(identity)
    got = described(saved(m, level))
    want = described(m)
    print(ort.__version__, f"identity={identity}", level.name, "(graph doc, graph props, then doc, then props):", got)
    bad |= got != want
if bad:
    print("BUG: the optimized model dropped what the graph and its body say of themselves (expected", want, ")")
    sys.exit(1)
print("ok")
