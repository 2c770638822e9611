"""onnx's version converter (Upsample 9 -> 8, adapters/upsample_9_8.h) refuses a scales value with another reader.

Y = Upsample-9(X, s), Z = Upsample-9(X2, s), mode nearest, `s` one initializer [1, 1, 2, 2] read by both nodes
(IR.md §Nodes: a name may be read by any number of node inputs), opset 9, IR 4. convert_version(m, 8) writes the
first node's `scales` attribute, then erases the initializer while the second node still reads it: the graph IR's
invariant fails ("eraseOutput: Assertion `outputs_[i]->uses().empty()` failed"). The same model with one copy of
`s` per node converts (two Upsample-7 nodes). The axes adapters (AxesInputToAttribute, AxisInputToAttribute) erase
their initializer only once it has no uses left; this adapter does not ask. The Constant path (`op->destroy()`)
and any other reader of `s` (an Identity) fail the same way.
Exits 1 while the bug is there, 0 once the shared model converts to two Upsample-7 nodes."""

import sys

import numpy as np
import onnx
import onnx.version_converter
from onnx import TensorProto, helper, numpy_helper


def model(shared: bool) -> onnx.ModelProto:
    second = "s" if shared else "s2"
    inits = [numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "s")]
    if not shared:
        inits.append(numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), "s2"))
    graph = helper.make_graph(
        [helper.make_node("Upsample", ["X", "s"], ["Y"], mode="nearest"),
         helper.make_node("Upsample", ["X2", second], ["Z"], mode="nearest")],
        "g",
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 1, 2, 2]) for n in ("X", "X2")],
        [helper.make_tensor_value_info(n, TensorProto.FLOAT, [1, 1, 4, 4]) for n in ("Y", "Z")],
        inits,
    )
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 9)], ir_version=4)
    onnx.checker.check_model(m, full_check=True)
    return m


print("onnx", onnx.__version__)
try:
    separate = onnx.version_converter.convert_version(model(False), 8)
    print("one copy per reader:", [n.op_type for n in separate.graph.node], "converted")
except Exception as exc:  # noqa: BLE001 - onnx <= 1.22 also refuses this one (s followed by s2: onnx/onnx#8334)
    print("one copy per reader refused too (the erase reads the next entry's name):", str(exc)[:120])
try:
    shared = onnx.version_converter.convert_version(model(True), 8)
except Exception as exc:  # noqa: BLE001 - the refusal is the bug
    print("BUG: the shared-scales model is refused:", type(exc).__name__, str(exc)[:160])
    sys.exit(1)
onnx.checker.check_model(shared, full_check=True)
print("fixed:", [(n.op_type, list(n.input)) for n in shared.graph.node])
sys.exit(0)
