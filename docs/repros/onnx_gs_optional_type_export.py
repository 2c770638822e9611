"""onnx-graphsurgeon's exporter cannot write a value of optional type: `gs.export_onnx(gs.import_onnx(m))`, the plain
round trip, raises `UnboundLocalError` in `OnnxExporter.export_value_info_proto` (`exporters/onnx_exporter.py`:
its branches build a tensor or sequence value_info and fall through to `return onnx_tensor` for any other type)
for a model whose graph output is an `optional(tensor)` (IR.md: TypeProto.Optional, IR 8; Operators.md Optional-15).
Every gs operation (cleanup, toposort, fold_constants) ends with the same export.

Model (opset 18, IR 8): x: float[2]; o = Optional(x) → output `o: optional(tensor(float))`; control: the same with
`y = Identity(x)` as a tensor output. Exits 1 while the round trip raises, 0 when it writes the model."""

import onnx
import onnx_graphsurgeon as gs
from onnx import TensorProto, helper

if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnx_graphsurgeon", gs.__version__)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [2])
    optional = helper.make_value_info(
        "o", helper.make_optional_type_proto(helper.make_tensor_type_proto(TensorProto.FLOAT, [2]))
    )
    bad = False
    for name, node, out in (
        (
            "tensor output (control)",
            helper.make_node("Identity", ["x"], ["y"]),
            helper.make_tensor_value_info("y", 1, [2]),
        ),
        ("optional output", helper.make_node("Optional", ["x"], ["o"]), optional),
    ):
        m = helper.make_model(
            helper.make_graph([node], "g", [x], [out]), opset_imports=[helper.make_opsetid("", 18)], ir_version=8
        )
        onnx.checker.check_model(m, full_check=True)
        try:
            back = gs.export_onnx(gs.import_onnx(m))
            print(f"{name}: round trip writes output type {back.graph.output[0].type}".replace("\n", " "))
        except Exception as exc:  # noqa: BLE001 - the tool's failure is the finding
            print(f"{name}: round trip raises {type(exc).__name__}: {exc}")
            bad = True
    raise SystemExit(1 if bad else 0)
