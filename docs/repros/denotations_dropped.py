"""Type and dimension denotations on a graph's declared types are dropped by three passes that keep the types.

IR.md §Type Denotation and onnx.proto (TypeProto.denotation, TensorShapeProto.Dimension.denotation;
docs/TypeDenotation.md, docs/DimensionDenotation.md): a value's type may carry a denotation (TENSOR, IMAGE, AUDIO,
TEXT) and each dim a standard label (DATA_BATCH, DATA_CHANNEL, DATA_FEATURE, ...). They are part of the declared
type of a graph input, output or value_info entry (a runtime may bind an IMAGE output as an image) and do not
change what the model computes, so a pass that keeps a value's declared type keeps them. The model here is
``y = Softmax(Relu(x))``, ``x``, ``y`` and the intermediate ``a`` declared ``float[N, 3]`` with the type denotation
TENSOR and DATA_FEATURE on both dims; onnx shape inference, the onnx inliner, onnx_ir's round trip and onnxruntime's
saved optimized model keep every label.

- ``converter``: ``onnx.version_converter.convert_version(m, 17)`` drops every type and dim denotation (inputs,
  outputs and value_info), keeping the dims.
- ``onnxscript``: ``onnxscript.optimizer.optimize(m)`` drops them on the output ``y`` and on ``a`` (the input keeps
  them).
- ``symbolic``: onnxruntime's ``SymbolicShapeInference.infer_shapes(m)`` drops the type denotation of ``y`` and ``a``
  (their dims keep theirs).

Usage: ``python denotations_dropped.py converter|onnxscript|symbolic``. Needs onnx, numpy and the tool named
(onnxscript; onnxruntime). Exits 1 while the tool drops a label the model declares.
"""

import sys

import onnx
from onnx import TensorProto, helper


def model():
    vis = [helper.make_tensor_value_info(n, TensorProto.FLOAT, ["N", 3]) for n in ("x", "y", "a")]
    for v in vis:
        v.type.denotation = "TENSOR"
        for d in v.type.tensor_type.shape.dim:
            d.denotation = "DATA_FEATURE"
    nodes = [helper.make_node("Relu", ["x"], ["a"]), helper.make_node("Softmax", ["a"], ["y"], axis=-1)]
    g = helper.make_graph(nodes, "denoted", [vis[0]], [vis[1]], value_info=[vis[2]])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)], ir_version=8)
    onnx.checker.check_model(m, full_check=True)
    return m


def labels(m):
    """Value name → (type denotation, dim denotations) for the declared values present in ``m``."""
    g = m.graph
    return {
        v.name: (v.type.denotation, [d.denotation for d in v.type.tensor_type.shape.dim])
        for v in [*g.input, *g.output, *g.value_info]
    }


def run(tool, m):
    if tool == "converter":
        import onnx.version_converter

        return onnx.version_converter.convert_version(m, 17), f"onnx {onnx.__version__}"
    if tool == "onnxscript":
        import onnxscript
        import onnxscript.optimizer

        return onnxscript.optimizer.optimize(m), f"onnxscript {onnxscript.__version__}"
    if tool == "symbolic":
        import onnxruntime
        from onnxruntime.tools.symbolic_shape_infer import SymbolicShapeInference

        return SymbolicShapeInference.infer_shapes(m), f"onnxruntime {onnxruntime.__version__}"
    raise SystemExit(f"usage: {sys.argv[0]} converter|onnxscript|symbolic")


tool = sys.argv[1] if len(sys.argv) > 1 else ""
m = model()
out, version = run(tool, m)
want, got = labels(m), labels(out)
lost = {k: (want[k], got[k]) for k in want if k in got and got[k] != want[k]}
print(version, "declared:", want)
for name, (w, g) in lost.items():
    print(f"  {name}: declared {w}, after the pass {g}")
print("BUG: denotations dropped" if lost else "ok: every denotation kept")
sys.exit(1 if lost else 0)
