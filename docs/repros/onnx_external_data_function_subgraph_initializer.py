"""onnx.external_data_helper skips the initializers of graphs nested in a model-local function's body.

y = local.maybe_add(x, flag); the function's body is one If whose then-branch graph holds an initializer
w = [0, 1, 2, 3] (raw_data) and computes X + w. The model is valid (full checker) and onnxruntime runs it.
IR.md §External Tensor Data lets any TensorProto keep its bytes in a file beside the model. Written so (w's bytes in
w.bin, data_location EXTERNAL), onnx.external_data_helper.load_external_data_for_model — what onnx.load calls —
walks the main graph's initializers (and its subgraphs'), and the attribute tensors of the main graph and of the
function bodies (onnx/onnx#6233), but never the initializers of a graph inside a function body: w is left without
its bytes ("should be stored in w.bin"). The writer, convert_model_to_external_data(convert_attribute=True, "convert
all tensors"), skips the same tensor. Exits 1 while the loader leaves w unread, 0 once it reads it back."""

import os
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnx import external_data_helper as ed

w = numpy_helper.from_array(np.arange(4, dtype=np.float32), "w")
then_g = helper.make_graph(
    [helper.make_node("Add", ["X", "w"], ["bt"])],
    "then",
    [],
    [helper.make_tensor_value_info("bt", TensorProto.FLOAT, [4])],
    initializer=[w],
)
else_g = helper.make_graph(
    [helper.make_node("Identity", ["X"], ["be"])],
    "else",
    [],
    [helper.make_tensor_value_info("be", TensorProto.FLOAT, [4])],
)
body = [helper.make_node("If", ["F"], ["Y"], then_branch=then_g, else_branch=else_g)]
fn = helper.make_function("local", "maybe_add", ["X", "F"], ["Y"], body, [helper.make_opsetid("", 15)])
graph = helper.make_graph(
    [helper.make_node("maybe_add", ["x", "flag"], ["y"], domain="local")],
    "g",
    [
        helper.make_tensor_value_info("x", TensorProto.FLOAT, [4]),
        helper.make_tensor_value_info("flag", TensorProto.BOOL, []),
    ],
    [helper.make_tensor_value_info("y", TensorProto.FLOAT, [4])],
)
opsets = [helper.make_opsetid("", 15), helper.make_opsetid("local", 1)]
model = helper.make_model(graph, opset_imports=opsets, functions=[fn], ir_version=8)
onnx.checker.check_model(model, full_check=True)
print("onnx", onnx.__version__)


def branch_initializer(m):
    (attr,) = [a for a in m.functions[0].node[0].attribute if a.name == "then_branch"]
    return attr.g.initializer[0]


with tempfile.TemporaryDirectory() as d:
    t = branch_initializer(model)
    with open(os.path.join(d, "w.bin"), "wb") as f:
        f.write(t.raw_data)
    ed.set_external_data(t, "w.bin", 0, len(t.raw_data))
    t.ClearField("raw_data")
    t.data_location = TensorProto.EXTERNAL
    ed.load_external_data_for_model(model, d)
    t = branch_initializer(model)
    print("loader read w back:", t.HasField("raw_data"), "data_location:", t.data_location)
    try:
        onnx.checker.check_model(model, full_check=True)
    except onnx.checker.ValidationError as e:
        print("checker:", str(e).splitlines()[0])
        sys.exit(1)
print("w read back; the model is valid")
