"""onnx-graphsurgeon's import → export round trip (`gs.export_onnx(gs.import_onnx(m))`, under every gs operation)
drops a graph input that has an initializer of the same name: `OnnxImporter.import_graph` skips such inputs
("Initializers are not considered to be inputs"), so the exported model keeps only the initializer. IR.md (IR 4+,
"Graphs"): an initializer whose name is also a graph input is that input's default value, which the caller may
override by feeding it. After the round trip the default is a constant: feeding `w` is refused ("Invalid input
name: w"), and a runtime that ignores unknown feeds computes with the default instead of the fed value.

Model (opset 17, IR 8): inputs x: float[2] and w: float[2], initializer w = [1, 2]; y = Add(x, w). Fed x = [0, 0],
w = [10, 20]: y = [10, 20]. The same line breaks a model of IR version 3, where every initializer must also be a
graph input (IR.md, "Graphs": before IR 4 the initializers are a subset of the inputs; the checker's "in initializer
but not in graph input"): the round trip keeps ir_version 3 and writes `w` as an initializer only, so the checker
refuses the output (second check, opset 7, IR 3). Exits 1 while either holds, 0 when both are fixed."""

import numpy as np
import onnx
import onnx_graphsurgeon as gs
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnx_graphsurgeon", gs.__version__)
    io = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [2]) for n in ("x", "w", "y")]
    default = numpy_helper.from_array(np.array([1, 2], np.float32), "w")
    graph = helper.make_graph([helper.make_node("Add", ["x", "w"], ["y"])], "g", io[:2], io[2:], [default])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    out = gs.export_onnx(gs.import_onnx(m))
    print("graph inputs after the round trip:", [i.name for i in out.graph.input])
    feeds = {"x": np.zeros(2, np.float32), "w": np.array([10, 20], np.float32)}
    bad = False
    for name, model in (("given", m), ("round trip", out)):
        session = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
        try:
            print(f"{name}: y = {session.run(None, feeds)[0].tolist()}")
        except Exception as exc:  # noqa: BLE001 - the refusal is the finding
            print(f"{name}: refuses the fed default: {str(exc).splitlines()[0][:100]}")
            bad = True
    ir3 = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 7)], ir_version=3)
    onnx.checker.check_model(ir3, full_check=True)
    out3 = gs.export_onnx(gs.import_onnx(ir3))
    print("IR 3: graph inputs after the round trip:", [i.name for i in out3.graph.input], "ir_version", out3.ir_version)
    try:
        onnx.checker.check_model(out3, full_check=True)
        print("IR 3: the checker accepts the round trip")
    except onnx.checker.ValidationError as exc:
        print(f"IR 3: the checker refuses the round trip: {str(exc).splitlines()[0][:100]}")
        bad = True
    raise SystemExit(1 if bad else 0)
