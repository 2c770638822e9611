"""onnx-graphsurgeon's import → export round trip (`gs.export_onnx(gs.import_onnx(m))`, under every gs operation:
`toposort()`, `cleanup()`, `fold_constants()`) raises on any attribute holding an empty list: the importer keeps the
attribute as a Python list and drops its declared type (`AttributeProto.type`), and the exporter hands `[]` to
`onnx.helper.make_attribute` without a type, which cannot infer one from an empty list ("Could not infer attribute
`value_floats` type from empty iterator"). onnx.proto: an AttributeProto's `type` says which field holds the value,
and a repeated field may be empty; the checker accepts such a model and onnxruntime runs it.

Models (opset 17, IR 8): y = Identity(Constant(value_floats=[])) (an empty float tensor, as a Resize's unused `roi`
is written); y = Transpose(x, perm=[]) for a scalar x. Exits 1 while either round trip raises, 0 when fixed."""

import numpy as np
import onnx
import onnx_graphsurgeon as gs
import onnxruntime as ort
from onnx import AttributeProto, TensorProto, helper


def empty_attribute(name: str, kind: int) -> AttributeProto:
    attr = AttributeProto()
    attr.name, attr.type = name, kind
    return attr


def models():
    c = helper.make_node("Constant", [], ["c"])
    c.attribute.append(empty_attribute("value_floats", AttributeProto.FLOATS))
    g = helper.make_graph(
        [c, helper.make_node("Identity", ["c"], ["y"])],
        "g",
        [],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [0])],
    )
    yield (
        "Constant(value_floats=[])",
        helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8),
        {},
    )
    t = helper.make_node("Transpose", ["x"], ["y"])
    t.attribute.append(empty_attribute("perm", AttributeProto.INTS))
    io = [helper.make_tensor_value_info(n, TensorProto.FLOAT, []) for n in ("x", "y")]
    g = helper.make_graph([t], "g", io[:1], io[1:])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    yield "Transpose(x, perm=[])", m, {"x": np.array(2.0, np.float32)}


if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnx_graphsurgeon", gs.__version__)
    bad = False
    for label, m, feeds in models():
        onnx.checker.check_model(m, full_check=True)
        y = ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, feeds)[0]
        print(f"{label}: valid, onnxruntime gives {y.tolist()}")
        try:
            gs.export_onnx(gs.import_onnx(m))
            print(f"{label}: the round trip succeeds")
        except ValueError as exc:
            print(f"{label}: the round trip raises ValueError: {exc}")
            bad = True
    raise SystemExit(1 if bad else 0)
