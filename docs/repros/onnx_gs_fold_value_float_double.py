"""onnx-graphsurgeon's `Graph.fold_constants()` first lowers every `Constant` node to a constant tensor ("Pass 1" in
`ir/graph.py`), converting a `value_float` / `value_floats` attribute with `np.array(attr_val)`: the Python float
becomes a float64 array, so the constant is written back as a DOUBLE initializer. Operators.md Constant-12:
`value_float` / `value_floats` produce a float32 (scalar / 1-D) tensor. Any float32 op reading it is left with mixed
types: the checker and onnxruntime refuse the model (`value_int` / `value_ints` are int64 either way).

Model (opset 17): x: float[3]; c = Constant<value_float=0.5>() (or value_floats=[0.5, 1, 2]); y = Mul(x, c).
Control: Constant<value=float tensor>. Exits 1 while a lowered constant is not float32 or the output does not run,
0 when fixed."""

import numpy as np
import onnx
import onnx_graphsurgeon as gs
import onnxruntime as ort
from onnx import TensorProto, helper, numpy_helper

CONSTANTS = {
    "value": {"value": numpy_helper.from_array(np.array([0.5, 1, 2], np.float32))},
    "value_float": {"value_float": 0.5},
    "value_floats": {"value_floats": [0.5, 1.0, 2.0]},
}

if __name__ == "__main__":
    print("onnx", onnx.__version__, "onnxruntime", ort.__version__, "onnx_graphsurgeon", gs.__version__)
    x = np.array([1, 2, 3], np.float32)
    bad = False
    for name, attrs in CONSTANTS.items():
        nodes = [helper.make_node("Constant", [], ["c"], **attrs), helper.make_node("Mul", ["x", "c"], ["y"])]
        io = [helper.make_tensor_value_info(n, TensorProto.FLOAT, [3]) for n in ("x", "y")]
        m = helper.make_model(
            helper.make_graph(nodes, "g", io[:1], io[1:]), opset_imports=[helper.make_opsetid("", 17)], ir_version=8
        )
        onnx.checker.check_model(m, full_check=True)
        out = gs.export_onnx(gs.import_onnx(m).toposort().fold_constants().cleanup())
        types = {t.name: TensorProto.DataType.Name(t.data_type) for t in out.graph.initializer}
        try:
            s = ort.InferenceSession(out.SerializeToString(), providers=["CPUExecutionProvider"])
            said, ok = f"y {s.run(None, {'x': x})[0].tolist()}", True
        except Exception as exc:  # noqa: BLE001 - the refusal is the finding
            said, ok = f"does not run: {str(exc).splitlines()[0][:100]}", False
        print(f"Constant<{name}>: initializers {types}, {said}")
        bad |= not ok or types.get("c") != "FLOAT"
    raise SystemExit(1 if bad else 0)
