"""onnx data propagation: Expand ignores a shape value it was given when the value's type has no shape.

``s = Shape(x)`` of ``x: float[N, 4, 6]``, ``u = Unsqueeze(s, axes=Shape(s, start=0, end=0))`` (empty axes, Operators.md
Unsqueeze-13: output rank = rank + len(axes), so ``u`` is ``s``), ``y = Expand(b, u)``, ``z = Reshape(x, u)``, opset 18.
onnx propagates the value ``[N, 4, 6]`` through the Unsqueeze (its data propagator copies the input), and Reshape's
inference reads it (``z: [N, 4, 6]``); Expand's is skipped because ``u``'s type has no shape (the axes are computed),
though it reads the shape by the same ``getShapeInput``. Exits 1 while ``y`` has no dims where ``z`` has them.
"""

import sys

import onnx
import onnx.parser

m = onnx.parser.parse_model("""
    <ir_version: 8, opset_import: ["" : 18]>
    g (float[N, 4, 6] x, float[6] b) => (float[a, c, d] y, float[e, f, h] z)
    {
        s = Shape(x)
        e0 = Shape <start = 0, end = 0> (s)
        u = Unsqueeze(s, e0)
        y = Expand(b, u)
        z = Reshape(x, u)
    }""")
for vi in m.graph.output:
    vi.type.tensor_type.ClearField("shape")
out = {o.name: o for o in onnx.shape_inference.infer_shapes(m, data_prop=True).graph.output}


def dims(name):
    t = out[name].type.tensor_type
    return [d.dim_value or d.dim_param or None for d in t.shape.dim] if t.HasField("shape") else None


print("onnx", onnx.__version__, "Expand:", dims("y"), "Reshape:", dims("z"))
sys.exit(1 if dims("z") == ["N", 4, 6] and dims("y") != ["N", 4, 6] else 0)
