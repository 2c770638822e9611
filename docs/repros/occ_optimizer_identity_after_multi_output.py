"""onnxconverter-common's graph optimizer fails an assertion removing an Identity that passes one output of a
two-output node to a graph output.

``a, b = Split(x, axis=0, num_outputs=2)``, ``y = Identity(a)``, graph outputs ``y`` and ``b``, ``x: float[2, 3]``,
opset 18. IR.md §Graphs: a node may have several outputs, any of them a graph output or read through an Identity.
``RedundantOptimizer.find`` (onnxconverter-common 1.16.0) hands an Identity next to a graph output to
``NextToOutputSolution``, whose ``apply`` redirects the producer's other readers with ``self.begin.single_output``,
which asserts the producer has one output: a bare ``AssertionError``, and the whole optimization fails. Without the
Identity (``Split`` writing ``y`` and ``b``) it runs.

Needs onnx, onnxconverter-common. Exits 1 while the Split alone optimizes to a valid model and the Identity form
fails.
"""

import sys

import onnx
from onnx import TensorProto, helper
from onnxconverter_common.optimizer import optimize_onnx_model

VI = helper.make_tensor_value_info


def model(identity):
    nodes = [helper.make_node("Split", ["x"], ["a" if identity else "y", "b"], axis=0, num_outputs=2)]
    if identity:
        nodes.append(helper.make_node("Identity", ["a"], ["y"]))
    graph = helper.make_graph(
        nodes,
        "g",
        [VI("x", TensorProto.FLOAT, [2, 3])],
        [VI("y", TensorProto.FLOAT, [1, 3]), VI("b", TensorProto.FLOAT, [1, 3])],
    )
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)


def error(m):
    onnx.checker.check_model(m, full_check=True)  # the given model is valid
    try:
        onnx.checker.check_model(optimize_onnx_model(m), full_check=True)
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {e}"
    return None


errors = {"Split writes y": error(model(False)), "y = Identity(Split's first output)": error(model(True))}
for k, e in errors.items():
    print(f"{k}: {e or 'valid'}")
sys.exit(1 if errors["Split writes y"] is None and errors["y = Identity(Split's first output)"] else 0)
