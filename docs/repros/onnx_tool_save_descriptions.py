"""onnx-tool's save_model drops the model's metadata_props and doc strings, the graph's name and doc string, and the
type / dim denotations and doc strings of graph inputs and outputs.

IR.md (Models, Graphs, ValueInfo, Type denotation, Dimension denotation) defines each as part of the model; a pass
that keeps the computation has no reason to drop them (onnx's own passes keep them). onnx-tool 1.0.1
`Graph.save_model` builds a new ModelProto from its own `Graph` (`make_graph_onnx(..., 'graph', ...)`, values from
`Tensor.make_value_proto`: name, type, shape), copying only opset_import and ir_version from `rawmodel`. Model:
`y = Relu(x)` with every description set, opset 17; operation: `onnx_tool.model_reorder_nodes`. Exits 1 while any
of them is lost.
"""

import sys
import tempfile
import warnings
from pathlib import Path

import onnx
import onnx_tool
from onnx import TensorProto, helper

warnings.simplefilter("ignore")
x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
x.doc_string = "input doc"
x.type.denotation = "TENSOR"
x.type.tensor_type.shape.dim[0].denotation = "DATA_FEATURE"
y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
y.doc_string = "output doc"
g = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "mygraph", [x], [y], doc_string="graph doc")
m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8, doc_string="model doc")
helper.set_model_props(m, {"unit": "m"})
onnx.checker.check_model(m, full_check=True)


def described(model):
    gi, go = model.graph.input[0], model.graph.output[0]
    return {
        "model doc_string": model.doc_string,
        "metadata_props": {p.key: p.value for p in model.metadata_props},
        "graph name": model.graph.name,
        "graph doc_string": model.graph.doc_string,
        "input doc_string": gi.doc_string,
        "input type denotation": gi.type.denotation,
        "input dim denotation": gi.type.tensor_type.shape.dim[0].denotation,
        "output doc_string": go.doc_string,
    }


with tempfile.TemporaryDirectory() as d:
    path = str(Path(d) / "r.onnx")
    onnx_tool.model_reorder_nodes(m, path)
    out = onnx.load(path)
before, after = described(m), described(out)
lost = [k for k in before if before[k] != after[k]]
for k in before:
    print(f"{k}: {before[k]!r} -> {after[k]!r}")
print(f"{len(lost)} of {len(before)} descriptions lost")
sys.exit(1 if lost else 0)
