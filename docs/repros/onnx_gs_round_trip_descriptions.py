"""onnx-graphsurgeon's import → export round trip (`gs.export_onnx(gs.import_onnx(m))`, under every gs operation)
drops what a graph input or output's ValueInfoProto says beside its element type and shape: the type's `denotation`
(TypeProto field 6), each dimension's `denotation` (TensorShapeProto.Dimension field 3), the ValueInfoProto's
`doc_string` and its `metadata_props` (IR 10). gs's Variable keeps a name, a dtype and a shape only
(`importers/onnx_importer.py`, `exporters/onnx_exporter.py` write nothing else). IR.md (Type Denotation, Dimension
Denotation, Metadata): these describe the model's interface to its users; the same round trip keeps the graph's
doc_string and the model's metadata_props.

Model (opset 17, IR 10): x: float[2] with type denotation TENSOR, dim denotation DATA_FEATURE, doc_string and
metadata_props {"unit": "m"}; y = Relu(x). Exits 1 while any of them is missing after the round trip, 0 when fixed."""

import onnx
import onnx_graphsurgeon as gs
from onnx import TensorProto, helper

if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnx_graphsurgeon", gs.__version__)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2], doc_string="distance along the track")
    x.type.denotation = "TENSOR"
    x.type.tensor_type.shape.dim[0].denotation = "DATA_FEATURE"
    x.metadata_props.add(key="unit", value="m")
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, [2])
    graph = helper.make_graph([helper.make_node("Relu", ["x"], ["y"])], "g", [x], [y])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=10)
    onnx.checker.check_model(m, full_check=True)
    back = gs.export_onnx(gs.import_onnx(m)).graph.input[0]
    kept = {
        "type denotation": back.type.denotation == "TENSOR",
        "dim denotation": back.type.tensor_type.shape.dim[0].denotation == "DATA_FEATURE",
        "doc_string": back.doc_string == x.doc_string,
        "metadata_props": [(p.key, p.value) for p in back.metadata_props] == [("unit", "m")],
    }
    print("kept after the round trip:", kept)
    raise SystemExit(0 if all(kept.values()) else 1)
