"""onnx-graphsurgeon's `Graph.fold_constants()` raises on any model that holds a string tensor constant (an
initializer, or a `Constant` node, whether or not anything is foldable): its exporter (`constant_to_onnx_tensor`
in `exporters/onnx_exporter.py`) writes every constant whose values were loaded as `raw_data`, which the ONNX IR
does not allow for STRING (onnx.proto: "raw_data … cannot be used to store strings"), and fold_constants loads
them when it exports its clone of the graph for onnxruntime. `error_ok=True` (its default) does not catch it. The
plain round trip (import → export) keeps the string initializer and works.

Model (opset 17): s: string[2] initializer {"a", "b"}; x: float[2]; y = Relu(x); z = Identity(s). Exits 1 while
`fold_constants` raises, 0 when fixed (the strings kept)."""

import onnx
import onnx_graphsurgeon as gs
from onnx import TensorProto, helper

if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnx_graphsurgeon", gs.__version__)
    strings = helper.make_tensor("s", TensorProto.STRING, [2], [b"a", b"b"])
    graph = helper.make_graph(
        [helper.make_node("Relu", ["x"], ["y"]), helper.make_node("Identity", ["s"], ["z"])],
        "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])],
        [
            helper.make_tensor_value_info("y", TensorProto.FLOAT, [2]),
            helper.make_tensor_value_info("z", TensorProto.STRING, [2]),
        ],
        [strings],
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    trip = gs.export_onnx(gs.import_onnx(m))
    print("round trip:", [list(t.string_data) for t in trip.graph.initializer])
    try:
        out = gs.export_onnx(gs.import_onnx(m).toposort().fold_constants().cleanup())
    except Exception as exc:  # noqa: BLE001 - the tool's failure is the finding
        print(f"fold_constants raises {type(exc).__name__}: {exc}")
        raise SystemExit(1) from None
    kept = [list(t.string_data) for t in out.graph.initializer]
    print("fold_constants:", kept)
    raise SystemExit(0 if kept == [[b"a", b"b"]] else 1)
