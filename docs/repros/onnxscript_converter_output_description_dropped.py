"""onnxscript's version converter, on an ir.Model, drops the description of a graph output whose node an adapter rewrites.

IR.md (§Graphs: a graph's outputs are ValueInfos with a doc_string; §Other Metadata) makes an output's doc_string and
metadata_props part of the interface; a converter keeps the interface. y = GroupNormalization-18(x, s, b),
num_groups = 2, x: float[2, 4, 3], s and b [2]-long, opset 20, IR 9; the output y carries doc_string "documented" and
metadata_props {"k": "v"}. onnx_ir's own round trip keeps both. convert_version(ir_model, 21) rewrites the node
(groupnormalization_20_21 in version_converter/_version_converter.py repeats scale and bias per channel), and the graph
output y, now another value, comes back without its doc_string and metadata_props. Exits 1 while the bug is there,
0 once the converted output keeps its description."""

import sys

import onnx
import onnx_ir as ir
import onnxscript
import onnxscript.version_converter
from onnx import TensorProto, helper

graph = helper.make_graph(
    [helper.make_node("GroupNormalization", ["x", "s", "b"], ["y"], num_groups=2)],
    "g",
    [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, 3]),
        helper.make_tensor_value_info("s", TensorProto.FLOAT, [2]),
        helper.make_tensor_value_info("b", TensorProto.FLOAT, [2]),
    ],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4, 3])],
)
graph.output[0].doc_string = "documented"
graph.output[0].metadata_props.add(key="k", value="v")
model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 20)], ir_version=9)
print("onnx", onnx.__version__, "onnxscript", onnxscript.__version__, "onnx-ir", ir.__version__)

kept = ir.serde.serialize_model(ir.serde.deserialize_model(model)).graph.output[0]
assert kept.doc_string == "documented", "onnx_ir's own round trip already drops it"

converted = ir.serde.deserialize_model(model)
onnxscript.version_converter.convert_version(converted, 21)
out = ir.serde.serialize_model(converted)
y = out.graph.output[0]
print("converted:", [n.op_type for n in out.graph.node])
print("output", y.name, "doc_string", repr(y.doc_string), "metadata_props", {p.key: p.value for p in y.metadata_props})
if y.doc_string != "documented" or {p.key: p.value for p in y.metadata_props} != {"k": "v"}:
    print("BUG: the converted graph output lost its description")
    sys.exit(1)
sys.exit(0)
