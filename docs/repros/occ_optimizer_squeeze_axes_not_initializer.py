"""onnxconverter-common's graph optimizer crashes when an input it reads a value from is not an initializer
(a Squeeze's ``axes``, the bias of a Conv before a BatchNormalization).

``y = Relu(Squeeze(x, axes))``, ``x: float[1, 3]``, ``axes = [0]``, opset 17 (Squeeze-13 takes ``axes`` as an input).
``MergeSqueezeUnsqueezeOptimizer.find`` (onnxconverter-common 1.16.0) reads the axes with
``_get_axes_from_Squeeze_Unsqueeze``: ``node.get_precedence_by_idx(1).tensors[0]``, the initializer behind input 1.
When ``axes`` is a ``Constant`` node's output (or any computed value) the producer holds no tensor and it raises
``IndexError: list index out of range``; the whole optimization fails. (IR.md §Graphs: an initializer and a Constant
node give the same value; a value computed at run time is a valid ``axes`` too.) ``ConvBatchNormSolution`` reads a
Conv's bias the same way: ``Conv(x, w, "")`` (an empty name, Operators.md Conv: optional ``B``; IR.md §Names: an
empty name is an omitted optional input) or a Constant-node bias before a BatchNormalization raise the same
IndexError, where ``Conv(x, w)`` fuses. Both are printed.

Needs onnx, onnxconverter-common, numpy. Exits 1 while the initializer spelling optimizes and the Constant one
crashes.
"""

import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxconverter_common.optimizer import optimize_onnx_model

VI = helper.make_tensor_value_info
AXES = numpy_helper.from_array(np.array([0], np.int64), "axes")


def model(constant_node):
    nodes = [helper.make_node("Squeeze", ["x", "axes"], ["s"]), helper.make_node("Relu", ["s"], ["y"])]
    if constant_node:
        nodes.insert(0, helper.make_node("Constant", [], ["axes"], value=AXES))
    graph = helper.make_graph(
        nodes,
        "g",
        [VI("x", TensorProto.FLOAT, [1, 3])],
        [VI("y", TensorProto.FLOAT, [3])],
        [] if constant_node else [AXES],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


def error(m):
    onnx.checker.check_model(m, full_check=True)  # the given model is valid
    try:
        onnx.checker.check_model(optimize_onnx_model(m), full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"
    return None


def conv_bn(conv_inputs):
    rng = np.random.default_rng(0)
    weights = {
        "w": rng.standard_normal((4, 3, 3, 3)).astype(np.float32),
        "scale": np.ones(4, np.float32),
        "shift": np.zeros(4, np.float32),
        "mean": np.zeros(4, np.float32),
        "var": np.ones(4, np.float32),
    }
    nodes = [
        helper.make_node("Conv", conv_inputs, ["c"], pads=[1, 1, 1, 1]),
        helper.make_node("BatchNormalization", ["c", "scale", "shift", "mean", "var"], ["b"]),
        helper.make_node("Relu", ["b"], ["y"]),
    ]
    graph = helper.make_graph(
        nodes,
        "g",
        [VI("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [VI("y", TensorProto.FLOAT, [1, 4, 8, 8])],
        [numpy_helper.from_array(v, k) for k, v in weights.items()],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8)


errors = {
    "axes an initializer": error(model(False)),
    "axes a Constant node": error(model(True)),
    "Conv(x, w) before BN": error(conv_bn(["x", "w"])),
    'Conv(x, w, "") before BN': error(conv_bn(["x", "w", ""])),
}
for k, e in errors.items():
    print(f"{k}: {e or 'valid'}")
sys.exit(1 if errors["axes an initializer"] is None and errors["axes a Constant node"] else 0)
